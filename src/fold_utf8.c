/* fold_utf8.c - GNU grep's -i relation in a UTF-8 locale, as a fold.
 *
 * Owns: decoding as mbrtowc does, the canonical form of each character
 * (towupper through a table for the BMP), folding patterns and windows of
 * text into per-thread scratch with a sparse map back to the text, and the
 * DFA's narrower relation.  See fold_utf8.h for the relations themselves.
 */
#include "fold_utf8.h"

#include "bits.h"

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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#define BMP 0x10000

struct fold_table {
	/* towupper of each BMP character (ASCII: itself, the automaton folds
	 * it; 0: ask towupper, the answer lies outside the BMP) */
	uint16_t upper[BMP];
	uint8_t narrow[BMP / 8]; /* DFA-narrow characters */
	bool ascii_needs[128];   /* ASCII with a non-ASCII case counterpart */
	bool to_ascii_lead[256]; /* lead bytes of characters folding to ASCII */
	size_t (*skip_blocks)(const struct fold_table *, const unsigned char *, size_t);
};

static size_t skip_blocks(const struct fold_table *t, const unsigned char *u, size_t n);
#if FOLD_X86
static size_t skip_blocks_avx2(const struct fold_table *t, const unsigned char *u, size_t n);
#endif

/* Lowercase letters whose uppercase lowercases to another letter: grep's
 * case_folded_counterparts adds them to their uppercase letter's class. */
static const wchar_t lonesome_lower[] = {
	0x00B5, 0x0131, 0x017F, 0x01C5, 0x01C8, 0x01CB, 0x01F2, 0x0345, 0x03C2, 0x03D0,
	0x03D1, 0x03D5, 0x03D6, 0x03F0, 0x03F1, 0x03F2, 0x03F5, 0x1E9B, 0x1FBE,
};

static bool is_lonesome(wint_t c)
{
	for (size_t i = 0; i < sizeof lonesome_lower / sizeof *lonesome_lower; i++)
		if ((wint_t)lonesome_lower[i] == c)
			return true;
	return false;
}

/* grep's case_folded_counterparts: the characters other than c that its
 * DFA lets c match; returns how many (at most 2 + the lonesome ones). */
static int case_counterparts(wint_t c, wint_t out[24])
{
	int n = 0;
	wint_t uc = towupper(c), lc = towlower(uc);
	if (uc != c)
		out[n++] = uc;
	if (lc != uc && lc != c && towupper(lc) == uc)
		out[n++] = lc;
	for (size_t i = 0; i < sizeof lonesome_lower / sizeof *lonesome_lower; i++) {
		wint_t li = (wint_t)lonesome_lower[i];
		if (li != lc && li != uc && li != c && towupper(li) == uc)
			out[n++] = li;
	}
	return n;
}

/* DFA-narrow: c folds to another character but is neither that one's
 * lowercase nor a lonesome lowercase letter, so case_counterparts of the
 * other members of its class leave it out. */
static bool narrow_of(wint_t c)
{
	wint_t u = towupper(c);
	return u != c && towlower(u) != c && !is_lonesome(c);
}

/* Encodes c (at most 0x7FFFFFFF) in UTF-8; returns its length. */
static size_t encode(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	size_t len = c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
	static const unsigned char lead[7] = { 0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC };
	for (size_t i = len - 1; i > 0; i--, c >>= 6)
		out[i] = (char)(0x80 | (c & 0x3F));
	out[0] = (char)(lead[len] | c);
	return len;
}

struct fold_table *fold_table_new(void)
{
	struct fold_table *t = malloc(sizeof *t);
	if (!t)
		return NULL;
	memset(t->narrow, 0, sizeof t->narrow);
	memset(t->to_ascii_lead, 0, sizeof t->to_ascii_lead);
	t->skip_blocks = skip_blocks;
#if FOLD_X86
	if (__builtin_cpu_supports("avx2"))
		t->skip_blocks = skip_blocks_avx2;
#endif
	for (uint32_t c = 0; c < 0x80; c++) {
		t->upper[c] = (uint16_t)c;
		wint_t others[24];
		int n = case_counterparts(c, others);
		t->ascii_needs[c] = false;
		for (int i = 0; i < n; i++)
			t->ascii_needs[c] |= others[i] >= 0x80;
	}
	for (uint32_t c = 0x80; c < BMP; c++) {
		wint_t u = towupper(c);
		t->upper[c] = u < BMP ? (uint16_t)u : 0;
		if (u < 0x80) /* glibc has none outside the BMP */
			t->to_ascii_lead[c < 0x800 ? 0xC0 | c >> 6 : 0xE0 | c >> 12] = true;
		if (u != c && narrow_of(c))
			t->narrow[c >> 3] |= (uint8_t)(1u << (c & 7));
	}
	return t;
}

void fold_table_free(struct fold_table *t)
{
	free(t);
}

size_t fold_decode(const unsigned char *s, size_t n, uint32_t *wc)
{
	uint32_t c = s[0], min;
	size_t len;
	if (c < 0x80) {
		*wc = c;
		return 1;
	}
	if (c < 0xC2)
		return 0;
	if (c < 0xE0)
		len = 2, c &= 0x1F, min = 0x80;
	else if (c < 0xF0)
		len = 3, c &= 0x0F, min = 0x800;
	else if (c < 0xF8)
		len = 4, c &= 0x07, min = 0x10000;
	else if (c < 0xFC)
		len = 5, c &= 0x03, min = 0x200000;
	else if (c < 0xFE)
		len = 6, c &= 0x01, min = 0x4000000;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*wc = c;
	return len;
}

/* The canonical form of a non-ASCII character c. */
static uint32_t upper_of(const struct fold_table *t, uint32_t c)
{
	if (c < BMP) {
		uint16_t u = t->upper[c];
		return u ? u : (uint32_t)towupper((wint_t)c);
	}
	return c <= 0x10FFFF ? (uint32_t)towupper((wint_t)c) : c;
}

static bool is_narrow(const struct fold_table *t, uint32_t c)
{
	if (c < BMP)
		return t->narrow[c >> 3] >> (c & 7) & 1;
	return c <= 0x10FFFF && narrow_of((wint_t)c);
}

/* towupper for the relation (ASCII included). */
static uint32_t rel_upper(const struct fold_table *t, uint32_t c)
{
	if (c < 0x80)
		return c >= 'a' && c <= 'z' ? c - 0x20 : c;
	return upper_of(t, c);
}

size_t fold_pattern(const struct fold_table *t, const char *p, size_t len, char *out,
		    struct fold_facts *facts)
{
	const unsigned char *s = (const unsigned char *)p;
	*facts = (struct fold_facts){ false, false, false };
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		uint32_t c;
		size_t l = fold_decode(s + i, len - i, &c);
		if (l == 0) {
			facts->invalid = facts->needs_fold = true;
			out[o++] = p[i++];
			continue;
		}
		if (c < 0x80) {
			facts->needs_fold |= t->ascii_needs[c];
			out[o++] = p[i++];
			continue;
		}
		wint_t others[24];
		facts->needs_fold |= c <= 0x10FFFF && case_counterparts((wint_t)c, others) > 0;
		facts->narrow |= is_narrow(t, c);
		uint32_t u = upper_of(t, c);
		if (u == c) {
			memcpy(out + o, p + i, l);
			o += l;
		} else {
			o += encode(u, out + o);
		}
		i += l;
	}
	return o;
}

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

static void scratch_key_create(void)
{
	if (pthread_key_create(&scratch_key, scratch_free) != 0)
		abort();
}

static void out_of_memory(void)
{
	fputs("acgrep: memory exhausted\n", stderr);
	exit(2);
}

/* Grows *p (of *cap elements of `size` bytes) to hold `need` elements. */
static void grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t n = *cap * 2 > need ? *cap * 2 : need;
	void *q = realloc(*(void **)p, n * size);
	if (!q)
		out_of_memory();
	*(void **)p = q;
	*cap = n;
}

static struct scratch_slot *scratch_slot(int slot, size_t text_need, size_t span_need)
{
	if (!scratch_mine) {
		pthread_once(&scratch_once, scratch_key_create);
		scratch_mine = calloc(1, sizeof *scratch_mine);
		if (!scratch_mine)
			out_of_memory();
		pthread_setspecific(scratch_key, scratch_mine);
	}
	struct scratch_slot *s = &scratch_mine->slot[slot];
	grow(&s->text, &s->text_cap, text_need, 1);
	grow(&s->spans, &s->span_cap, span_need, sizeof *s->spans);
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
	return t->to_ascii_lead[*s] && fold_decode(s, n, &c) > 0 && upper_of(t, c) < 0x80;
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
	size_t i = t->skip_blocks(t, u, n);
	if (i + 64 <= n)
		return i;
	for (;; i++) { /* the last partial block */
		i += fold_ascii_run(s + i, n - i);
		if (i == n || to_ascii_at(t, u + i, n - i))
			return i;
	}
}

static size_t ascii_run(const unsigned char *s, size_t n)
{
	return fold_ascii_run((const char *)s, n);
}

void fold_window(const struct fold_table *t, const char *buf, size_t from, size_t to, int slot,
		 struct fold_window *w)
{
	size_t n = to - from;
	struct scratch_slot *sc = scratch_slot(slot, 2 * n + 1, n / 2 + 1);
	const unsigned char *s = (const unsigned char *)buf + from;
	char *out = sc->text;
	size_t o = 0, ns = 0;
	bool narrow = false;
	for (size_t i = 0; i < n;) {
		size_t run = ascii_run(s + i, n - i);
		memcpy(out + o, s + i, run);
		i += run;
		o += run;
		if (i == n)
			break;
		uint32_t c, u;
		size_t l = fold_decode(s + i, n - i, &c);
		if (l == 0 || (u = upper_of(t, c)) == c) {
			l += l == 0;
			memcpy(out + o, s + i, l);
			o += l;
			i += l;
			continue;
		}
		narrow |= is_narrow(t, c);
		size_t fl = encode(u, out + o);
		if (fl != l)
			sc->spans[ns++] = (struct fold_span){ o, i, (unsigned char)fl, (unsigned char)l };
		o += fl;
		i += l;
	}
	*w = (struct fold_window){ out, o, from, sc->spans, ns, narrow };
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

/* ---- the DFA's relation ---- */

bool fold_has_narrow(const struct fold_table *t, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		i += ascii_run(u + i, n - i);
		if (i == n)
			break;
		uint32_t c;
		size_t l = fold_decode(u + i, n - i, &c);
		if (l && is_narrow(t, c))
			return true;
		i += l ? l : 1;
	}
	return false;
}

/* Matches pattern p[0..plen) against s[i..n) character by character;
 * returns the end in s, or SIZE_MAX. */
static size_t dfa_prefix(const struct fold_table *t, const char *p, size_t plen, const char *s,
			 size_t n, size_t i)
{
	const unsigned char *pu = (const unsigned char *)p, *su = (const unsigned char *)s;
	for (size_t k = 0; k < plen;) {
		if (i >= n)
			return SIZE_MAX;
		uint32_t c, d;
		size_t lc = fold_decode(pu + k, plen - k, &c), ld = fold_decode(su + i, n - i, &d);
		if (lc == 0 || ld == 0) {
			if (lc || ld || pu[k] != su[i])
				return SIZE_MAX;
			k++;
			i++;
			continue;
		}
		if (c != d && (rel_upper(t, c) != rel_upper(t, d) || is_narrow(t, d)))
			return SIZE_MAX;
		k += lc;
		i += ld;
	}
	return i;
}

bool fold_dfa_equal(const struct fold_table *t, const char *p, size_t plen, const char *s,
		    size_t n)
{
	return dfa_prefix(t, p, plen, s, n, 0) == n;
}

size_t fold_dfa_search(const struct fold_table *t, const char *p, size_t plen, const char *s,
		       size_t n, size_t from, bool anchored, bool to_end)
{
	for (size_t i = from; i <= n;) {
		size_t e = dfa_prefix(t, p, plen, s, n, i);
		if (e != SIZE_MAX && to_end && e != n)
			e = SIZE_MAX;
		if (e != SIZE_MAX || anchored || i == n)
			return e;
		uint32_t wc;
		size_t l = fold_decode((const unsigned char *)s + i, n - i, &wc);
		i += l ? l : 1;
	}
	return SIZE_MAX;
}

bool fold_is_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		i += ascii_run(u + i, n - i);
		if (i == n)
			break;
		uint32_t c;
		size_t l = fold_decode(u + i, n - i, &c);
		if (l == 0)
			return false;
		i += l;
	}
	return true;
}
