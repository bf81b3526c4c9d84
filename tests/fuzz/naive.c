/* naive.c - the fuzzers' brute-force reference for grep -F matching.
 *
 * Owns: the table of matches per text position (every pattern compared
 * byte by byte, through a sorted list so that thousands of generated
 * patterns stay affordable) and grep -F's selection rules over it; see
 * naive.h for what it answers and where it declines to.
 */
#include "naive.h"

#include <stdlib.h>
#include <string.h>

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

bool naive_init(struct naive *nv, const struct pattern *patterns, size_t n, const uint8_t *text,
		size_t text_len, const struct naive_options *opt)
{
	*nv = (struct naive){ .opt = *opt, .text = text, .text_len = text_len };
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
			if (count == cap) {
				cap *= 2;
				uint32_t *nl = realloc(nv->lens, cap * sizeof *nl);
				if (!nl) {
					ok = false;
					break;
				}
				nv->lens = nl;
			}
			nv->lens[count++] = (uint32_t)len_of[k];
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
	nv->first = NULL;
	nv->lens = NULL;
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
	if (word && o->utf8)
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
