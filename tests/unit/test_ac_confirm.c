/* SPDX-License-Identifier: MIT */
/* test_ac_confirm.c - the HASH path's confirm table (ac_confirm.h) against
 * the automaton's stepping and a brute-force oracle.
 *
 * Random sets over a small alphabet (NUL, 0xff, '.', letters of both
 * cases; shortest patterns of 1 to 6 bytes, longest up to 24, nested
 * prefixes and duplicates) are compiled for the HASH path with each kernel
 * cap, with and without AC_FOLD_ASCII.  Texts with the patterns planted
 * (case-flipped under folding) end exactly at an inaccessible page and
 * start exactly after another, so any read past either end faults.  From
 * every offset, ac_find's first-end and leftmost-longest matches (start,
 * end and pattern id) must be those of the same automaton with its confirm
 * table taken away, and their ends the oracle's; every match
 * ac_scan_leftmost reports must be too.  The table must be built where
 * the buckets are small, not where one would hold more than
 * AC_CONFIRM_BUCKET_MAX patterns or a pattern is longer than
 * AC_CONFIRM_MAX_LEN, and again by ac_load.
 * Failures name the set, the cap and the text.
 */
#include "ac_file.h"
#include "ac_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "guard_page.h"

#define MAX_PATS 40
#define MAX_LEN 24

static unsigned rng_state = 4242;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 16) % n;
}

static const uint8_t alphabet[] = { 'a', 'b', 'c', 'A', 'B', '.', 0, 0xff };

struct set {
	uint8_t pat[MAX_PATS][MAX_LEN];
	size_t len[MAX_PATS], n;
	bool fold;
};

static uint8_t lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

static bool eq_at(const struct set *s, size_t k, const uint8_t *t, size_t tlen, size_t at)
{
	if (tlen - at < s->len[k])
		return false;
	for (size_t i = 0; i < s->len[k]; i++)
		if (s->fold ? lower(t[at + i]) != lower(s->pat[k][i]) : t[at + i] != s->pat[k][i])
			return false;
	return true;
}

/* The oracle's first end from `from`, or SIZE_MAX. */
static size_t oracle_first_end(const struct set *s, const uint8_t *t, size_t tlen, size_t from)
{
	size_t best = SIZE_MAX;
	for (size_t at = from; at < tlen; at++)
		for (size_t k = 0; k < s->n; k++)
			if (eq_at(s, k, t, tlen, at) && at + s->len[k] < best)
				best = at + s->len[k];
	return best;
}

/* The oracle's leftmost-longest end from `from`, or SIZE_MAX. */
static size_t oracle_ll_end(const struct set *s, const uint8_t *t, size_t tlen, size_t from)
{
	for (size_t at = from; at < tlen; at++) {
		size_t best = 0;
		for (size_t k = 0; k < s->n; k++)
			if (eq_at(s, k, t, tlen, at) && s->len[k] > best)
				best = s->len[k];
		if (best)
			return at + best;
	}
	return SIZE_MAX;
}

static void random_set(struct set *s, bool fold)
{
	size_t min = 1 + rnd(6), span = rnd(MAX_LEN - 6);
	s->n = 2 + rnd(MAX_PATS - 2);
	s->fold = fold;
	for (size_t k = 0; k < s->n; k++) {
		if (k && rnd(4) == 0) { /* a prefix or extension of the previous */
			memcpy(s->pat[k], s->pat[k - 1], MAX_LEN);
			s->len[k] = min + rnd(span + 1);
		} else {
			s->len[k] = min + rnd(span + 1);
			for (size_t i = 0; i < MAX_LEN; i++)
				s->pat[k][i] = alphabet[rnd(sizeof alphabet)];
		}
	}
}

/* The most distinct patterns of s that share their first key_width bytes
 * (folded under s->fold): a bucket holds them all. */
static size_t crowd(const struct set *s)
{
	size_t min = SIZE_MAX, most = 0;
	for (size_t k = 0; k < s->n; k++)
		if (s->len[k] < min)
			min = s->len[k];
	size_t w = min < 4 ? min : 4;
	for (size_t k = 0; k < s->n; k++) {
		size_t n = 0;
		for (size_t j = 0; j < s->n; j++) {
			bool dup = false, key = true;
			for (size_t i = 0; i < j && !dup; i++) /* count each distinct pattern once */
				dup = s->len[i] == s->len[j] && eq_at(s, i, s->pat[j], s->len[j], 0);
			for (size_t i = 0; i < w; i++)
				key &= s->fold ? lower(s->pat[j][i]) == lower(s->pat[k][i])
					       : s->pat[j][i] == s->pat[k][i];
			n += key && !dup;
		}
		if (n > most)
			most = n;
	}
	return most;
}

static ac_automaton *compile(const struct set *s, enum simd_level cap)
{
	ac_automaton *ac = ac_new(s->fold ? AC_FOLD_ASCII : 0);
	for (size_t k = 0; k < s->n; k++)
		ac_add(ac, s->pat[k], s->len[k]);
	ac_limit_simd(ac, cap);
	if (ac_compile(ac, AC_PATH_HASH) != 0) {
		ac_free(ac);
		return NULL;
	}
	return ac;
}

/* A text of tlen bytes at t: random bytes with patterns planted. */
static void random_text(const struct set *s, uint8_t *t, size_t tlen)
{
	for (size_t i = 0; i < tlen; i++)
		t[i] = alphabet[rnd(sizeof alphabet)];
	for (size_t n = rnd(8); n--;) {
		size_t k = rnd((unsigned)s->n);
		if (s->len[k] > tlen)
			continue;
		size_t at = rnd((unsigned)(tlen - s->len[k] + 1));
		for (size_t i = 0; i < s->len[k]; i++) {
			uint8_t c = s->pat[k][i];
			t[at + i] = s->fold && c >= 'a' && c <= 'z' && rnd(2) ? (uint8_t)(c - 32) : c;
		}
	}
}

static bool same(const ac_match *a, const ac_match *b)
{
	return a->start == b->start && a->end == b->end && a->pattern == b->pattern;
}

/* ac_find with the confirm table and without, from every offset. */
static void check_text(ac_automaton *ac, const struct set *s, const uint8_t *t, size_t tlen,
		       const char *name)
{
	struct ac_confirm *cf = ac->confirm;
	for (size_t from = 0; from <= tlen; from++) {
		for (int sem = AC_FIRST_END; sem <= AC_LEFTMOST_LONGEST; sem++) {
			ac_match got = { 0 }, want = { 0 };
			bool g = ac_find(ac, t, tlen, from, sem, &got);
			ac->confirm = NULL;
			bool w = ac_find(ac, t, tlen, from, sem, &want);
			ac->confirm = cf;
			size_t oracle = sem == AC_FIRST_END ? oracle_first_end(s, t, tlen, from)
							    : oracle_ll_end(s, t, tlen, from);
			CHECK(g == w && (!g || same(&got, &want)) && (g ? got.end : SIZE_MAX) == oracle,
			      "%s, sem %d from %zu of %zu: got %d %zu-%zu #%u, stepping %d %zu-%zu #%u, oracle end %zu",
			      name, sem, from, tlen, g, got.start, got.end, got.pattern, w, want.start,
			      want.end, want.pattern, oracle);
		}
	}
}

static void random_sets(void)
{
	struct guard_page g = { .page = 0 };
	if (!guard_page_map(&g)) {
		CHECK(false, "guard pages");
		return;
	}
	static const enum simd_level caps[] = { SIMD_SCALAR, SIMD_AVX2, SIMD_BEST };
	for (unsigned round = 0; round < 400; round++) {
		struct set s;
		random_set(&s, round % 2);
		for (size_t ci = 0; ci < sizeof caps / sizeof *caps; ci++) {
			ac_automaton *ac = compile(&s, caps[ci]);
			CHECK(ac != NULL, "compile");
			if (!ac)
				continue;
			bool small = ac_scan_path_used(ac) == AC_PATH_HASH && crowd(&s) <= 4;
			CHECK(!small || ac->confirm, "round %u: no table for a set of small buckets", round);
			char name[96];
			snprintf(name, sizeof name, "round %u (%zu patterns, fold %d), cap %d", round, s.n,
				 s.fold, (int)caps[ci]);
			size_t tlen = 1 + rnd(200);
			random_text(&s, g.end - tlen, tlen); /* ends at the page's end */
			check_text(ac, &s, g.end - tlen, tlen, name);
			random_text(&s, g.start, tlen); /* starts at the page's start */
			check_text(ac, &s, g.start, tlen, name);
			ac_free(ac);
		}
	}
	guard_page_free(&g);
}

/* More patterns share a first key than a bucket holds: no table, and the
 * stepping finds them. */
static void crowded_bucket(void)
{
	struct set s = { .n = AC_CONFIRM_BUCKET_MAX + 4 };
	for (size_t k = 0; k < s.n; k++) {
		memcpy(s.pat[k], "abcd", 4);
		s.pat[k][4] = (uint8_t)('a' + k);
		s.len[k] = 5;
	}
	ac_automaton *ac = compile(&s, SIMD_BEST);
	CHECK(ac && !ac->confirm, "a crowded bucket builds no table");
	const uint8_t text[] = "xxabcdlyyabcdaz";
	ac_match m;
	CHECK(ac && ac_find(ac, text, sizeof text - 1, 0, AC_FIRST_END, &m) && m.start == 2 &&
		      m.end == 7 && m.pattern == 11,
	      "stepping finds abcdl");
	ac_free(ac);
}

/* A pattern longer than AC_CONFIRM_MAX_LEN: no table (comparing it at
 * each candidate could cost its length every few bytes). */
static void long_pattern(void)
{
	static uint8_t text[4096];
	struct set s = { .n = 2 };
	memcpy(s.pat[0], "abcd", 4);
	s.len[0] = 4;
	ac_automaton *ac = ac_new(0);
	uint8_t longest[AC_CONFIRM_MAX_LEN + 1];
	for (size_t i = 0; i < sizeof longest; i++)
		longest[i] = "efgh"[i % 4];
	ac_add(ac, s.pat[0], s.len[0]);
	ac_add(ac, longest, sizeof longest);
	CHECK(ac_compile(ac, AC_PATH_HASH) == 0 && ac_scan_path_used(ac) == AC_PATH_HASH && !ac->confirm,
	      "a %zu-byte pattern builds no table", sizeof longest);
	for (size_t i = 0; i < sizeof text; i++)
		text[i] = "efgh"[i % 4];
	memcpy(text + sizeof text - 4, "abcd", 4);
	ac_match m;
	CHECK(ac_find(ac, text, sizeof text, 1, AC_FIRST_END, &m) && m.start == 4 &&
		      m.end == 4 + sizeof longest && m.pattern == 1,
	      "stepping finds the long pattern first");
	CHECK(ac_find(ac, text, sizeof text, sizeof text - 64, AC_LEFTMOST_LONGEST, &m) &&
		      m.start == sizeof text - 4 && m.pattern == 0,
	      "and abcd at the end");
	ac_free(ac);
}

/* ac_load builds the same table from a compiled set's image. */
static void loaded(void)
{
	struct set s = { .n = 30, .fold = true }; /* distinct first 4 bytes: small buckets */
	for (size_t k = 0; k < s.n; k++) {
		s.len[k] = (size_t)snprintf((char *)s.pat[k], MAX_LEN, "W%02zuq.%.*s", k, (int)(k % 9),
					    "AbCdEfGhI");
	}
	ac_automaton *ac = compile(&s, SIMD_BEST);
	struct secfile_writer w = { .pieces = NULL };
	CHECK(ac && ac_save(ac, &w) == 0, "save");
	FILE *f = tmpfile();
	CHECK(f && secfile_write(&w, fileno(f)) == 0, "write");
	off_t size = f ? lseek(fileno(f), 0, SEEK_END) : -1;
	uint8_t *img = size > 0 ? aligned_alloc(64, ((size_t)size + 64) & ~(size_t)63) : NULL;
	CHECK(img && pread(fileno(f), img, (size_t)size, 0) == size, "read back");
	struct secfile sf;
	char why[128];
	const char *lwhy = NULL;
	ac_automaton *back = NULL;
	if (img && secfile_open(&sf, img, (size_t)size, why, sizeof why) == 0)
		back = ac_load(&sf, SIMD_BEST, &lwhy);
	CHECK(back && back->confirm && ac->confirm, "the loaded set has its table: %s",
	      lwhy ? lwhy : "");
	if (back && back->confirm && ac->confirm) {
		uint32_t buckets = (1u << ac->confirm->bits) + 1;
		CHECK(back->confirm->bits == ac->confirm->bits &&
			      !memcmp(back->confirm->first, ac->confirm->first, buckets * 4),
		      "the same buckets");
		uint8_t text[300];
		random_text(&s, text, sizeof text);
		check_text(back, &s, text, sizeof text, "loaded");
	}
	ac_free(back);
	free(img);
	if (f)
		fclose(f);
	secfile_writer_free(&w);
	ac_free(ac);
}

int main(void)
{
	random_sets();
	crowded_bucket();
	long_pattern();
	loaded();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
