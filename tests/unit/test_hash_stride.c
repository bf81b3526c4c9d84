/* SPDX-License-Identifier: MIT */
/* test_hash_stride.c - the HASH prefilter's strided lookups (ac_scan.c's
 * block_mask_hash, ac_prefilter.c's hash_pick) against the definition.
 *
 * Sets whose shortest pattern leaves room for a stride of 2, 4 or 8 (and
 * one too large for stride 8 in the table, which must fall back to 4) are
 * compiled for the HASH path with each kernel cap; the stride chosen must
 * be the one the lengths call for.  Random texts over a small alphabet
 * (with NUL bytes, and the patterns planted in them, case-flipped under
 * -i) end exactly at an inaccessible page and start exactly after another,
 * so any read past either end faults.  Every overlapping match, every
 * leftmost-longest match and the first match end from a spread of offsets
 * must be the brute-force oracle's.  The prefilter's candidates
 * (ac_candidate_count) must be the definition's: in a whole block, each
 * position whose own window is in the table and whose group's strided
 * lookup hits (at stride 1 through the shift-or filter, a window that
 * also passes it, window_shift.h); near the end, each position whose
 * window is in the table.
 * Failures name the set, the cap and the text.
 */
#include "ac_internal.h"

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "guard_page.h"

#define MAX_PATS 1600
#define MAX_LEN 20

static unsigned rng_state = 77;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 16) % n;
}

struct set {
	uint8_t pat[MAX_PATS][MAX_LEN];
	size_t len[MAX_PATS], n;
	bool fold;
};

static bool byte_eq(uint8_t a, uint8_t b, bool fold)
{
	if (fold && (a | 0x20) >= 'a' && (a | 0x20) <= 'z')
		return (a | 0x20) == (b | 0x20);
	return a == b;
}

static bool occurs_at(const struct set *s, size_t k, const uint8_t *t, size_t tlen, size_t at)
{
	if (tlen - at < s->len[k])
		return false;
	for (size_t j = 0; j < s->len[k]; j++)
		if (!byte_eq(s->pat[k][j], t[at + j], s->fold))
			return false;
	return true;
}

/* The oracle's overlapping match count (distinct patterns, each end). */
static size_t naive_overlaps(const struct set *s, const uint8_t *t, size_t tlen)
{
	size_t n = 0;
	for (size_t at = 0; at < tlen; at++)
		for (size_t k = 0; k < s->n; k++)
			n += occurs_at(s, k, t, tlen, at);
	return n;
}

/* The oracle's leftmost-longest match from `from`: false when none. */
static bool naive_ll(const struct set *s, const uint8_t *t, size_t tlen, size_t from, size_t *start,
		     size_t *end)
{
	for (size_t at = from; at < tlen; at++) {
		size_t best = 0;
		for (size_t k = 0; k < s->n; k++)
			if (s->len[k] > best && occurs_at(s, k, t, tlen, at))
				best = s->len[k];
		if (best) {
			*start = at;
			*end = at + best;
			return true;
		}
	}
	return false;
}

/* The oracle's first match end at or after `from`, or SIZE_MAX. */
static size_t naive_first_end(const struct set *s, const uint8_t *t, size_t tlen, size_t from)
{
	for (size_t end = from + 1; end <= tlen; end++)
		for (size_t k = 0; k < s->n; k++)
			if (s->len[k] <= end - from && occurs_at(s, k, t, tlen, end - s->len[k]))
				return end;
	return SIZE_MAX;
}

static int count_cb(const ac_match *m, void *ctx)
{
	(void)m;
	++*(size_t *)ctx;
	return 0;
}

/* Whether the window at t[i..] (zero bytes past tlen) is in the table. */
static bool in_table(const ac_automaton *ac, const uint8_t *t, size_t tlen, size_t i)
{
	uint32_t load = 0;
	memcpy(&load, t + i, tlen - i < 4 ? tlen - i : 4);
	unsigned h = ac_window_hash(load, ac->window_mask, ac->window_fold);
	return (ac->window_bits[h >> 6] >> (h & 63)) & 1;
}

/* The HASH prefilter's candidates by definition, block by block from 0. */
static size_t naive_candidates(const ac_automaton *ac, const uint8_t *t, size_t tlen)
{
	size_t n = 0, stride = ac->window_stride;
	const struct window_shift *shift = ac->shift_cell ? ac_window_shift(ac) : NULL;
	for (size_t b = 0; b < tlen; b += 64)
		for (size_t i = 0; i < 64 && b + i + ac->window_width <= tlen; i++) {
			size_t group_last = b + i - i % stride + stride - 1;
			bool whole = tlen - b >= 67;
			n += in_table(ac, t, tlen, b + i) && (!whole || in_table(ac, t, tlen, group_last)) &&
			     (tlen - b < 72 || !shift || window_shift_admits(shift, t + b + i));
		}
	return n;
}

static void check_text(const ac_automaton *ac, const struct set *s, const uint8_t *t, size_t tlen,
		       const char *what)
{
	size_t got = 0, want = naive_overlaps(s, t, tlen);
	ac_scan_overlapping(ac, t, tlen, 0, count_cb, &got);
	CHECK(got == want, "%s, %zu bytes: overlapping: want %zu got %zu", what, tlen, want, got);
	got = ac_candidate_count(ac, t, tlen);
	want = naive_candidates(ac, t, tlen);
	CHECK(got == want, "%s, %zu bytes: candidates: want %zu got %zu", what, tlen, want, got);
	size_t from = 0, es, ee;
	ac_match m;
	for (;;) {
		bool w = naive_ll(s, t, tlen, from, &es, &ee);
		bool g = ac_find(ac, t, tlen, from, AC_LEFTMOST_LONGEST, &m);
		CHECK(w == g && (!w || (m.start == es && m.end == ee)), "%s, %zu bytes, from %zu: leftmost-longest",
		      what, tlen, from);
		if (!w || !g)
			break;
		from = ee;
	}
	for (size_t f = 0; f <= tlen; f += 1 + tlen / 16) {
		size_t w = naive_first_end(s, t, tlen, f);
		bool g = ac_find(ac, t, tlen, f, AC_FIRST_END, &m);
		CHECK(g ? m.end == w : w == SIZE_MAX, "%s, %zu bytes, from %zu: first end", what, tlen, f);
	}
}

/* A random text of tlen bytes at dst, with some of the set's patterns. */
static void fill_text(const struct set *s, uint8_t *dst, size_t tlen)
{
	static const uint8_t alpha[] = { 'a', 'b', 'c', 'A', 'B', ' ', 0 };
	for (size_t j = 0; j < tlen; j++)
		dst[j] = alpha[rnd(sizeof alpha)];
	for (size_t plant = rnd(6); plant > 0; plant--) {
		size_t k = rnd((unsigned)s->n);
		if (s->len[k] > tlen)
			continue;
		size_t at = rnd((unsigned)(tlen - s->len[k] + 1));
		for (size_t j = 0; j < s->len[k]; j++)
			dst[at + j] = s->pat[k][j] ^ (s->fold && (s->pat[k][j] | 0x20) >= 'a' &&
							      (s->pat[k][j] | 0x20) <= 'z' && rnd(2) ? 0x20 : 0);
	}
}

static void check_set(const struct set *s, uint32_t stride, int rounds, struct guard_page *g,
		      const char *name)
{
	static const enum simd_level caps[] = { SIMD_SCALAR, SIMD_AVX2, SIMD_BEST };
	for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
		ac_automaton *ac = ac_new(s->fold ? AC_FOLD_ASCII : 0);
		for (size_t k = 0; k < s->n; k++)
			ac_add(ac, s->pat[k], s->len[k]);
		ac_limit_simd(ac, caps[c]);
		CHECK(ac_compile(ac, AC_PATH_HASH) == 0, "%s: compile", name);
		CHECK(ac->path == AC_PATH_HASH && ac->window_stride == stride, "%s, cap %d: stride %u, want %u",
		      name, (int)caps[c], ac->window_stride, stride);
		char what[96];
		for (int round = 0; round < rounds; round++) {
			size_t tlen = rnd(300);
			snprintf(what, sizeof what, "%s, cap %d, fold %d, round %d", name, (int)caps[c], s->fold,
				 round);
			fill_text(s, g->end - tlen, tlen);
			check_text(ac, s, g->end - tlen, tlen, what);
			memmove(g->start, g->end - tlen, tlen);
			check_text(ac, s, g->start, tlen, what);
		}
		ac_free(ac);
	}
}

/* A set of n patterns of min_len .. min_len + 5 bytes over a small
 * alphabet, so that texts hold them and their near misses. */
static void random_set(struct set *s, size_t n, size_t min_len, bool fold)
{
	static const uint8_t alpha[] = { 'a', 'b', 'c', 'A', 'B', 0 };
	s->n = n;
	s->fold = fold;
	for (size_t k = 0; k < n; k++) {
		s->len[k] = min_len + rnd(6);
		for (size_t j = 0; j < s->len[k]; j++)
			s->pat[k][j] = alpha[rnd(sizeof alpha)];
	}
	s->len[rnd((unsigned)n)] = min_len;
}

int main(void)
{
	static struct set s;
	struct guard_page g;
	if (!guard_page_map(&g)) {
		printf("no guard pages here; skipped\n");
		return 0;
	}
	char name[64];
	for (int fold = 0; fold < 2; fold++) {
		for (uint32_t stride = 2; stride <= 8; stride *= 2) {
			for (size_t min = stride + 3; min < stride + 3 + 2; min++) {
				random_set(&s, 1 + rnd(40), min, fold);
				snprintf(name, sizeof name, "stride %u, min %zu", stride, min);
				check_set(&s, stride, 24, &g, name);
			}
		}
		/* 1,600 distinct 11-byte prefixes: 12,800 windows at stride 8, too many */
		random_set(&s, MAX_PATS, 12, fold);
		check_set(&s, 4, 2, &g, "1,600 patterns");
	}
	guard_page_free(&g);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
