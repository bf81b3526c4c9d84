/* SPDX-License-Identifier: MIT */
/* naive.c - the fuzzers' brute-force reference for grep -F matching.
 *
 * Owns: the table of matches per text position (every pattern compared
 * byte by byte, through a sorted list so that thousands of generated
 * patterns stay affordable; for -i in UTF-8 every pattern tried at every
 * character, compared upper-cased) and grep -F's selection rules over it;
 * see naive.h for what it answers and where it declines to.
 */
#include "naive.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

static uint8_t fold_byte(uint8_t c, bool fold)
{
	return fold && c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* A pattern as compared: its bytes folded under -i. */
struct canon {
	const uint8_t *bytes;
	size_t len;
};

static int canon_cmp(const void *a, const void *b)
{
	const struct canon *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->len ? memcmp(x->bytes, y->bytes, x->len) : 0;
}

/* Compares text[0..len), folded, with a canonical pattern of that length. */
static int text_cmp(const uint8_t *text, const struct canon *c, bool fold)
{
	for (size_t i = 0; i < c->len; i++) {
		uint8_t t = fold_byte(text[i], fold);
		if (t != c->bytes[i])
			return t < c->bytes[i] ? -1 : 1;
	}
	return 0;
}

/* Is text[0..len) (folded) among sorted[lo..hi), all of that length? */
static bool in_range(const struct canon *sorted, size_t lo, size_t hi, const uint8_t *text, bool fold)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = text_cmp(text, &sorted[mid], fold);
		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* Appends len to nv->lens (*count of *cap); false when out of memory. */
static bool push_len(struct naive *nv, size_t *cap, size_t *count, uint32_t len)
{
	if (*count == *cap) {
		uint32_t *nl = realloc(nv->lens, 2 * *cap * sizeof *nl);
		if (!nl)
			return false;
		nv->lens = nl;
		*cap *= 2;
	}
	nv->lens[(*count)++] = len;
	return true;
}

/* ---- -i in UTF-8 ---- */

#define NOT_A_CHAR 0x80000000u /* or-ed with a byte that is no character */
#define DFA_NARROW(c) ((c) >= 0x1C80 && (c) <= 0x1C88) /* fold_utf8.h */
/* Work the fold oracle may do (patterns times positions) before declining */
#define FOLD_MAX_WORK (1u << 20)

/* s[i..n)'s first character as mbrtowc decodes it (a byte that is none
 * is a character of its own, NOT_A_CHAR | byte); returns its length. */
static size_t char_at(const uint8_t *s, size_t n, size_t i, uint32_t *c)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	wchar_t w;
	size_t r = mbrtowc(&w, (const char *)s + i, n - i, &st);
	if (r == (size_t)-1 || r == (size_t)-2) {
		*c = NOT_A_CHAR | s[i];
		return 1;
	}
	*c = (uint32_t)w;
	return r ? r : 1;
}

/* A decoded string: each character, its upper case, its byte length. */
struct chars {
	uint32_t *c, *up;
	uint8_t *len;
	size_t n;
};

static bool decode_chars(const uint8_t *s, size_t n, struct chars *out)
{
	*out = (struct chars){ .c = malloc((n + 1) * sizeof *out->c), .up = malloc((n + 1) * sizeof *out->up),
			       .len = malloc(n + 1) };
	if (!out->c || !out->up || !out->len)
		return false;
	for (size_t i = 0; i < n; out->n++) {
		uint32_t c;
		size_t l = char_at(s, n, i, &c);
		out->c[out->n] = c;
		out->up[out->n] = c & NOT_A_CHAR ? c : (uint32_t)towupper((wint_t)c);
		out->len[out->n] = (uint8_t)l;
		i += l;
	}
	return true;
}

static void free_chars(struct chars *x)
{
	free(x->c);
	free(x->up);
	free(x->len);
}

static int len_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The table for -i in UTF-8 (grep's regex matcher: characters equal, or
 * both characters with the same towupper), or nv->unknown where the
 * oracle is not grep (see naive.h) or the work is too much.  Returns
 * false when out of memory. */
static bool init_fold(struct naive *nv, const struct pattern *patterns, size_t n)
{
	struct chars t = { 0 }, *p = calloc(n ? n : 1, sizeof *p);
	size_t *at = malloc((nv->text_len + 1) * sizeof *at); /* text char k's offset */
	uint32_t *found = malloc((n ? n : 1) * sizeof *found);
	bool ok = p && at && found && decode_chars(nv->text, nv->text_len, &t);
	if (ok && (uint64_t)n * (t.n + 1) > FOLD_MAX_WORK)
		nv->unknown = true;
	for (size_t k = 0; ok && !nv->unknown && k < t.n; k++)
		nv->unknown = DFA_NARROW(t.c[k]);
	for (size_t i = 0; ok && !nv->unknown && i < n; i++) {
		ok = decode_chars((const uint8_t *)patterns[i].bytes, patterns[i].len, &p[i]);
		for (size_t k = 0; ok && k < p[i].n; k++)
			nv->unknown = nv->unknown || (p[i].c[k] & NOT_A_CHAR);
	}
	size_t cap = 256, count = 0;
	nv->first = malloc((nv->text_len + 2) * sizeof *nv->first);
	nv->lens = malloc(cap * sizeof *nv->lens);
	nv->starts = calloc(nv->text_len + 1, 1);
	ok = ok && nv->first && nv->lens && nv->starts;
	for (size_t k = 0, off = 0; ok && k <= t.n; off += k < t.n ? t.len[k] : 0, k++) {
		at[k] = off;
		nv->starts[off] = 1;
	}
	for (size_t k = 0, a = 0; ok && !nv->unknown && a <= nv->text_len; a++) {
		nv->first[a] = count;
		if (a != at[k])
			continue; /* inside a character: no match starts here */
		size_t nf = 0;
		for (size_t i = 0; i < n; i++) {
			size_t j = 0;
			while (j < p[i].n && k + j < t.n && t.c[k + j] != (uint8_t)nv->opt.eol &&
			       (t.c[k + j] == p[i].c[j] ||
				(!((t.c[k + j] | p[i].c[j]) & NOT_A_CHAR) && t.up[k + j] == p[i].up[j])))
				j++;
			if (j == p[i].n)
				found[nf++] = (uint32_t)(at[k + j] - a);
		}
		qsort(found, nf, sizeof *found, len_desc);
		for (size_t f = 0; f < nf; f++) {
			if (f > 0 && found[f] == found[f - 1])
				continue;
			if (!(ok = push_len(nv, &cap, &count, found[f])))
				break;
		}
		k++;
	}
	if (ok && !nv->unknown)
		nv->first[nv->text_len + 1] = count;
	free_chars(&t);
	for (size_t i = 0; p && i < n; i++)
		free_chars(&p[i]);
	free(p);
	free(at);
	free(found);
	if (!ok)
		naive_free(nv);
	return ok;
}

/* ---- the table ---- */

bool naive_init(struct naive *nv, const struct pattern *patterns, size_t n, const uint8_t *text,
		size_t text_len, const struct naive_options *opt)
{
	*nv = (struct naive){ .opt = *opt, .text = text, .text_len = text_len };
	if (opt->fold && opt->utf8)
		return init_fold(nv, patterns, n);
	size_t bytes = 1;
	for (size_t i = 0; i < n; i++)
		bytes += patterns[i].len;
	uint8_t *store = malloc(bytes);
	struct canon *sorted = malloc((n ? n : 1) * sizeof *sorted);
	/* the lengths present, and where each one's patterns lie in sorted[] */
	size_t *len_of = malloc((n ? n : 1) * sizeof *len_of);
	size_t *lo = malloc((n ? n : 1) * sizeof *lo), *hi = malloc((n ? n : 1) * sizeof *hi);
	nv->first = malloc((text_len + 2) * sizeof *nv->first);
	size_t cap = 256, count = 0;
	nv->lens = malloc(cap * sizeof *nv->lens);
	bool ok = store && sorted && len_of && lo && hi && nv->first && nv->lens;
	size_t used = 0, n_lens = 0;
	for (size_t i = 0; ok && i < n; i++) {
		for (size_t k = 0; k < patterns[i].len; k++)
			store[used + k] = fold_byte((uint8_t)patterns[i].bytes[k], opt->fold);
		sorted[i] = (struct canon){ .bytes = store + used, .len = patterns[i].len };
		used += patterns[i].len;
	}
	if (ok && n)
		qsort(sorted, n, sizeof *sorted, canon_cmp);
	/* distinct lengths, longest first */
	for (size_t i = n; ok && i-- > 0;) {
		if (n_lens && len_of[n_lens - 1] == sorted[i].len) {
			lo[n_lens - 1] = i;
			continue;
		}
		len_of[n_lens] = sorted[i].len;
		lo[n_lens] = i;
		hi[n_lens] = i + 1;
		n_lens++;
	}
	for (size_t a = 0; ok && a <= text_len; a++) {
		nv->first[a] = count;
		for (size_t k = 0; k < n_lens; k++) {
			if (len_of[k] > text_len - a ||
			    !in_range(sorted, lo[k], hi[k], text + a, opt->fold))
				continue;
			if (!(ok = push_len(nv, &cap, &count, (uint32_t)len_of[k])))
				break;
		}
	}
	if (ok)
		nv->first[text_len + 1] = count;
	free(store);
	free(sorted);
	free(len_of);
	free(lo);
	free(hi);
	if (!ok)
		naive_free(nv);
	return ok;
}

void naive_free(struct naive *nv)
{
	free(nv->first);
	free(nv->lens);
	free(nv->starts);
	nv->first = NULL;
	nv->lens = NULL;
	nv->starts = NULL;
}

/* grep's word constituents in a single-byte locale: [A-Za-z0-9_]. */
static bool is_word(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Is byte c a line boundary for -x? */
static bool boundary(const struct naive *nv, uint8_t c)
{
	return c == (uint8_t)nv->opt.eol || (nv->opt.nul_ends_lines && c == 0);
}

enum naive_answer naive_find(const struct naive *nv, size_t base, size_t len, size_t from, bool exact,
			     size_t *start, size_t *end)
{
	const uint8_t *w = nv->text + base;
	const struct naive_options *o = &nv->opt;
	bool word = o->word && !o->line;
	if (nv->unknown || (word && o->utf8) || (nv->starts && !nv->starts[base + from]))
		return NAIVE_UNKNOWN;
	if (word && exact && o->word_regex_rules && from > 0 && w[from - 1] != (uint8_t)o->eol)
		return NAIVE_UNKNOWN; /* grep's shorter retries from inside a line */
	for (size_t s = from; s <= len; s++) {
		const uint32_t *lens = nv->lens + nv->first[base + s];
		size_t n = nv->first[base + s + 1] - nv->first[base + s];
		if (o->line) {
			if (s > 0 && !boundary(nv, w[s - 1]))
				continue;
			size_t e = s;
			while (e < len && !boundary(nv, w[e]))
				e++;
			for (size_t k = 0; k < n; k++)
				if (lens[k] == e - s) {
					*start = s;
					*end = e;
					return NAIVE_YES;
				}
			continue;
		}
		bool longer = false; /* a non-empty match starts at s */
		for (size_t k = 0; k < n; k++) {
			size_t e = s + lens[k];
			if (e > len)
				continue; /* cut off by the buffer's end */
			longer = longer || e > s;
			if (word) {
				bool look_before = s > 0 && !(s == from && o->word_ignores_before_from);
				if ((look_before && is_word(w[s - 1])) || (e < len && is_word(w[e])))
					continue;
				if (e == s && o->word_regex_rules && longer)
					continue;
			}
			*start = s;
			*end = e;
			return NAIVE_YES;
		}
	}
	return NAIVE_NO;
}
