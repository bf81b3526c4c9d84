/* SPDX-License-Identifier: MIT */
/* fold_text.c - folding windows of text for -i in a UTF-8 locale.
 *
 * Owns: the per-thread scratch the folded windows live in, folding a
 * window with a sparse map back to the text's offsets, character
 * boundaries, and the fast scans that find where folding may change
 * anything (bytes of 0x80 or more; for patterns all ASCII, characters
 * folding to ASCII).  The characters themselves are fold_utf8.c's.
 */
#include "fold_internal.h"

#include "bits.h"
#include "grow.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(ACGREP_NO_SIMD)
#define FOLD_X86 1 /* an AVX2 kernel, chosen at run time */
#include <immintrin.h>
#else
#define FOLD_X86 0
#if defined(__SSE2__) && !defined(ACGREP_NO_SIMD)
#include <emmintrin.h>
#endif
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-thread scratch ---- */

struct scratch_slot {
	char *text;
	size_t text_cap;
	struct fold_span *spans;
	size_t span_cap;
};

struct scratch {
	struct scratch_slot slot[2];
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static _Thread_local struct scratch *scratch_mine;

static void scratch_free(void *p)
{
	struct scratch *s = p;
	if (!s)
		return;
	for (int i = 0; i < 2; i++) {
		free(s->slot[i].text);
		free(s->slot[i].spans);
	}
	free(s);
}

static bool scratch_key_made; /* pthread_key_create succeeded */

static void scratch_key_create(void)
{
	scratch_key_made = pthread_key_create(&scratch_key, scratch_free) == 0;
}

/* This thread's scratch `slot` with room for text_need bytes of text and
 * span_need spans, or NULL when out of memory. */
static struct scratch_slot *scratch_slot(int slot, size_t text_need, size_t span_need)
{
	if (!scratch_mine) {
		pthread_once(&scratch_once, scratch_key_create);
		/* the key frees the scratch of a thread that ends */
		struct scratch *mine = scratch_key_made ? calloc(1, sizeof *mine) : NULL;
		if (!mine || pthread_setspecific(scratch_key, mine) != 0) {
			free(mine);
			return NULL;
		}
		scratch_mine = mine;
	}
	struct scratch_slot *s = &scratch_mine->slot[slot];
	char *text = grow_array(s->text, &s->text_cap, text_need, 1, 256);
	if (!text)
		return NULL;
	s->text = text;
	struct fold_span *spans = grow_array(s->spans, &s->span_cap, span_need, sizeof *spans, 64);
	if (!spans)
		return NULL;
	s->spans = spans;
	return s;
}

void fold_release_scratch(void)
{
	if (!scratch_mine)
		return;
	scratch_free(scratch_mine);
	scratch_mine = NULL;
	pthread_setspecific(scratch_key, NULL);
}

/* ---- windows of text ---- */

#define HIGH_BITS 0x8080808080808080u

size_t fold_ascii_run(const char *s, size_t n)
{
	size_t i = 0;
#if defined(__SSE2__) && !defined(ACGREP_NO_SIMD)
	for (; i + 64 <= n; i += 64) {
		const __m128i *v = (const __m128i *)(const void *)(s + i);
		__m128i a = _mm_or_si128(_mm_loadu_si128(v), _mm_loadu_si128(v + 1));
		__m128i b = _mm_or_si128(_mm_loadu_si128(v + 2), _mm_loadu_si128(v + 3));
		if (_mm_movemask_epi8(_mm_or_si128(a, b)))
			break;
	}
#endif
	for (; i + 32 <= n; i += 32) {
		uint64_t w[4];
		memcpy(w, s + i, 32);
		if ((w[0] | w[1] | w[2] | w[3]) & HIGH_BITS)
			break;
	}
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if (w & HIGH_BITS)
			break;
	}
	while (i < n && (unsigned char)s[i] < 0x80)
		i++;
	return i;
}

/* Does a character folding to ASCII start at s[0..n)? */
static bool to_ascii_at(const struct fold_table *t, const unsigned char *s, size_t n)
{
	uint32_t c;
	return t->to_ascii_lead[*s] && fold_decode(s, n, &c) > 0 && fold_upper_of(t, c) < 0x80;
}

/* The first character folding to ASCII among the bytes of 0x80 or more
 * in the 64-byte block at u (of u[0..n)) that `high` marks, or 64. */
static unsigned block_to_ascii(const struct fold_table *t, const unsigned char *u, size_t n,
			       uint64_t high)
{
	for (; high; high = clear_lowest(high))
		if (to_ascii_at(t, u + ctz64(high), n - ctz64(high)))
			return ctz64(high);
	return 64;
}

/* skip_blocks: fold_skip for patterns all ASCII over whole 64-byte
 * blocks; returns where it stopped (a character folding to ASCII, or the
 * end of the last whole block). */
static size_t skip_blocks(const struct fold_table *t, const unsigned char *u, size_t n)
{
	size_t i = 0;
	for (; i + 64 <= n; i += 64) {
		uint64_t high = 0;
#if defined(__SSE2__) && !defined(ACGREP_NO_SIMD)
		const __m128i *v = (const __m128i *)(const void *)(u + i);
		__m128i x0 = _mm_loadu_si128(v), x1 = _mm_loadu_si128(v + 1);
		__m128i x2 = _mm_loadu_si128(v + 2), x3 = _mm_loadu_si128(v + 3);
		if (!_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(x0, x1), _mm_or_si128(x2, x3))))
			continue;
		high = (uint64_t)(unsigned)_mm_movemask_epi8(x0) |
		       (uint64_t)(unsigned)_mm_movemask_epi8(x1) << 16 |
		       (uint64_t)(unsigned)_mm_movemask_epi8(x2) << 32 |
		       (uint64_t)(unsigned)_mm_movemask_epi8(x3) << 48;
#else
		for (int j = 0; j < 64; j++)
			high |= (uint64_t)(u[i + j] >> 7) << j;
#endif
		unsigned k = block_to_ascii(t, u + i, n - i, high);
		if (k < 64)
			return i + k;
	}
	return i;
}

#if FOLD_X86
static __attribute__((target("avx2"))) size_t skip_blocks_avx2(const struct fold_table *t,
							       const unsigned char *u, size_t n)
{
	size_t i = 0;
	for (; i + 64 <= n; i += 64) {
		const __m256i *v = (const __m256i *)(const void *)(u + i);
		__m256i x0 = _mm256_loadu_si256(v), x1 = _mm256_loadu_si256(v + 1);
		if (!_mm256_movemask_epi8(_mm256_or_si256(x0, x1)))
			continue;
		uint64_t high = (uint64_t)(unsigned)_mm256_movemask_epi8(x0) |
				(uint64_t)(unsigned)_mm256_movemask_epi8(x1) << 32;
		unsigned k = block_to_ascii(t, u + i, n - i, high);
		if (k < 64)
			return i + k;
	}
	return i;
}
#endif

size_t fold_skip(const struct fold_table *t, const char *s, size_t n, bool ascii_set)
{
	const unsigned char *u = (const unsigned char *)s;
	if (!ascii_set)
		return fold_ascii_run(s, n);
#if FOLD_X86
	size_t i = __builtin_cpu_supports("avx2") ? skip_blocks_avx2(t, u, n) : skip_blocks(t, u, n);
#else
	size_t i = skip_blocks(t, u, n);
#endif
	if (i + 64 <= n)
		return i;
	for (;; i++) { /* the last partial block */
		i += fold_ascii_run(s + i, n - i);
		if (i == n || to_ascii_at(t, u + i, n - i))
			return i;
	}
}

bool fold_window(const struct fold_table *t, const char *buf, size_t from, size_t to, int slot,
		 struct fold_window *w)
{
	size_t n = to - from;
	struct scratch_slot *sc = scratch_slot(slot, 2 * n + 1, n / 2 + 1);
	if (!sc)
		return false;
	const unsigned char *s = (const unsigned char *)buf + from;
	char *out = sc->text;
	size_t o = 0, ns = 0;
	bool narrow = false;
	for (size_t i = 0; i < n;) {
		size_t run = fold_ascii_run((const char *)s + i, n - i);
		memcpy(out + o, s + i, run);
		i += run;
		o += run;
		if (i == n)
			break;
		uint32_t c, u;
		size_t l = fold_decode(s + i, n - i, &c);
		if (l == 0 || (u = fold_upper_of(t, c)) == c) {
			l += l == 0;
			memcpy(out + o, s + i, l);
			o += l;
			i += l;
			continue;
		}
		narrow |= fold_is_narrow(t, c);
		size_t fl = fold_encode(u, out + o);
		if (fl != l)
			sc->spans[ns++] = (struct fold_span){
				.f = o, .o = i, .flen = (unsigned char)fl, .olen = (unsigned char)l,
			};
		o += fl;
		i += l;
	}
	*w = (struct fold_window){
		.text = out, .len = o, .base = from, .spans = sc->spans, .n_spans = ns,
		.narrow = narrow,
	};
	return true;
}

size_t fold_to_text(const struct fold_window *w, size_t f)
{
	size_t lo = 0, hi = w->n_spans;
	while (lo < hi) { /* the first span starting at or after f */
		size_t mid = lo + (hi - lo) / 2;
		if (w->spans[mid].f < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return w->base + f;
	const struct fold_span *sp = &w->spans[lo - 1];
	if (f < sp->f + sp->flen) { /* inside it: where glibc's regex puts it */
		size_t i = f - sp->f;
		return w->base + sp->o + (i < sp->olen ? i : sp->olen - 1u);
	}
	return w->base + sp->o + sp->olen + (f - sp->f - sp->flen);
}

size_t fold_floor(const struct fold_window *w, size_t o)
{
	size_t rel = o - w->base, lo = 0, hi = w->n_spans, f;
	while (lo < hi) { /* the first span starting after rel */
		size_t mid = lo + (hi - lo) / 2;
		if (w->spans[mid].o <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0) {
		f = rel;
	} else {
		const struct fold_span *sp = &w->spans[lo - 1];
		if (rel < sp->o + sp->olen)
			return sp->f;
		f = sp->f + sp->flen + (rel - sp->o - sp->olen);
	}
	return f >= w->len ? w->len : fold_char_start(w->text, w->len, f);
}

size_t fold_char_start(const char *s, size_t len, size_t p)
{
	if (p >= len || ((unsigned char)s[p] & 0xC0) != 0x80)
		return p;
	for (size_t k = 1; k <= 5 && k <= p; k++) {
		unsigned char b = (unsigned char)s[p - k];
		if ((b & 0xC0) == 0x80)
			continue;
		uint32_t wc;
		size_t l = b >= 0xC0 ? fold_decode((const unsigned char *)s + p - k, len - (p - k), &wc) : 0;
		return l > k ? p - k : p;
	}
	return p;
}

size_t fold_char_ceil(const char *s, size_t len, size_t p)
{
	size_t st = fold_char_start(s, len, p);
	if (st == p)
		return p;
	uint32_t wc;
	return st + fold_decode((const unsigned char *)s + st, len - st, &wc);
}
