/* SPDX-License-Identifier: MIT */
/* test_ac.c - the Aho-Corasick engine against a brute-force oracle.
 *
 * Every case runs through every scan path (DFA, candidate bitmap, memchr
 * and rare bytes where they apply, Teddy with each vector kernel, the pair and
 * hashed-window bitmaps scalar and with gathers), with and without ASCII
 * folding: ac_find (leftmost-longest from every match end, first end from
 * a spread of offsets), ac_scan_leftmost and ac_scan_overlapping must
 * agree with the oracle, and the named cases with the matches worked out
 * by hand.  Boundary sweeps put matches at offsets 0..140 so they straddle
 * 64-byte blocks; a dictionary's shape puts the scan's stretches of
 * stepping at every kind of place.  Large sets (200,000 patterns: sparse states), sets full
 * of duplicates, sets sorted and linked on two threads, and adopted lists
 * must compile to the automaton their patterns define.  Failures name the
 * case and the scan path.
 */
#include "ac.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "guard_page.h"

/* Every scan path, and the prefilters with each vector kernel (capped to
 * what this CPU runs: main prints which those are; "best" is the widest). */
static const struct {
	const char *name;
	enum ac_scan_path path;
	enum simd_level simd;
} paths[] = {
	{ .name = "dfa", .path = AC_PATH_DFA, .simd = SIMD_BEST },
	{ .name = "bitmap/best", .path = AC_PATH_BITMAP, .simd = SIMD_BEST },
	{ .name = "memchr", .path = AC_PATH_MEMCHR, .simd = SIMD_BEST },
	{ .name = "auto/best", .path = AC_PATH_AUTO, .simd = SIMD_BEST },
	{ .name = "auto/scalar", .path = AC_PATH_AUTO, .simd = SIMD_SCALAR },
	{ .name = "teddy/scalar", .path = AC_PATH_TEDDY, .simd = SIMD_SCALAR },
	{ .name = "teddy/ssse3", .path = AC_PATH_TEDDY, .simd = SIMD_SSSE3 },
	{ .name = "teddy/avx2", .path = AC_PATH_TEDDY, .simd = SIMD_AVX2 },
	{ .name = "teddy/avx512", .path = AC_PATH_TEDDY, .simd = SIMD_AVX512 },
	{ .name = "teddy/neon", .path = AC_PATH_TEDDY, .simd = SIMD_NEON },
	{ .name = "bitmap/scalar", .path = AC_PATH_BITMAP, .simd = SIMD_SCALAR },
	{ .name = "bitmap/avx2", .path = AC_PATH_BITMAP, .simd = SIMD_AVX2 },
	{ .name = "hash/best", .path = AC_PATH_HASH, .simd = SIMD_BEST },
	{ .name = "hash/scalar", .path = AC_PATH_HASH, .simd = SIMD_SCALAR },
	{ .name = "hash/avx2", .path = AC_PATH_HASH, .simd = SIMD_AVX2 },
	{ .name = "rare/scalar", .path = AC_PATH_RARE, .simd = SIMD_SCALAR },
	{ .name = "rare/sse2", .path = AC_PATH_RARE, .simd = SIMD_SSSE3 },
	{ .name = "rare/avx2", .path = AC_PATH_RARE, .simd = SIMD_AVX2 },
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int eq_at(const char *text, size_t tlen, size_t at, const char *pat, size_t plen, int fold)
{
	if (at + plen > tlen)
		return 0;
	for (size_t i = 0; i < plen; i++) {
		int a = (unsigned char)text[at + i], b = (unsigned char)pat[i];
		if (fold ? lower(a) != lower(b) : a != b)
			return 0;
	}
	return 1;
}

/* Oracle: leftmost-longest match starting at or after from. */
static int naive_ll(const char *const *pats, size_t np, const char *text, size_t tlen, size_t from, int fold,
		    size_t *ms, size_t *me)
{
	for (size_t s = from; s <= tlen; s++) {
		long best = -1;
		for (size_t k = 0; k < np; k++) {
			size_t pl = strlen(pats[k]);
			if ((long)pl > best && eq_at(text, tlen, s, pats[k], pl, fold) && (pl > 0 || 1))
				best = (long)pl;
		}
		if (best >= 0) {
			*ms = s;
			*me = s + (size_t)best;
			return 1;
		}
	}
	return 0;
}

/* Oracle: earliest end among all matches starting at or after from. */
static long naive_first_end(const char *const *pats, size_t np, const char *text, size_t tlen, size_t from, int fold)
{
	long best = -1;
	for (size_t s = from; s <= tlen; s++)
		for (size_t k = 0; k < np; k++) {
			size_t pl = strlen(pats[k]);
			if (eq_at(text, tlen, s, pats[k], pl, fold) && (best < 0 || (long)(s + pl) < best))
				best = (long)(s + pl);
		}
	return best;
}

struct collect {
	size_t n;
	size_t start[4096], end[4096];
};

static int collect_cb(const ac_match *m, void *ctx)
{
	struct collect *c = ctx;
	if (c->n < 4096) {
		c->start[c->n] = m->start;
		c->end[c->n] = m->end;
	}
	c->n++;
	return 0;
}

/* Whether offset f falls inside one of c's matches (a scan from f then
 * finds other matches than the tail of c's). */
static bool starts_inside(const struct collect *c, size_t f)
{
	for (size_t k = 0; k < c->n && k < 4096; k++)
		if (c->start[k] < f && f < c->end[k])
			return true;
	return false;
}

static size_t naive_overlap_count(const char *const *pats, size_t np, const char *text, size_t tlen, int fold)
{
	/* distinct (start, end) pairs: duplicates of a pattern count once */
	size_t n = 0;
	for (size_t s = 0; s <= tlen; s++)
		for (size_t e = s; e <= tlen; e++)
			for (size_t k = 0; k < np; k++)
				if (strlen(pats[k]) == e - s && eq_at(text, tlen, s, pats[k], e - s, fold)) {
					n++;
					break;
				}
	return n;
}

/* ac_new, ac_add and ac_compile for the set on scan path paths[pi]. */
static ac_automaton *compiled(const char *const *pats, size_t np, int fold, size_t pi, const char *name)
{
	ac_automaton *ac = ac_new(fold ? AC_FOLD_ASCII : 0);
	for (size_t k = 0; k < np; k++)
		ac_add(ac, pats[k], strlen(pats[k]));
	ac_limit_simd(ac, paths[pi].simd);
	CHECK(ac_compile(ac, paths[pi].path) == 0, "%s, %s: compile", name, paths[pi].name);
	return ac;
}

static void check_case(const char *const *pats, size_t np, const char *text, size_t tlen, int fold, const char *name)
{
	for (size_t pi = 0; pi < sizeof paths / sizeof *paths; pi++) {
		ac_automaton *ac = compiled(pats, np, fold, pi, name);
		/* leftmost-longest iteration, as grep -o walks a line */
		size_t from = 0;
		for (;;) {
			size_t es, ee;
			ac_match m;
			int want = naive_ll(pats, np, text, tlen, from, fold, &es, &ee);
			int got = ac_find(ac, (const uint8_t *)text, tlen, from, AC_LEFTMOST_LONGEST, &m);
			CHECK(want == got && (!want || (m.start == es && m.end == ee)),
			      "%s, %s, fold %d, from %zu: want %d [%zu,%zu) got %d [%zu,%zu)", name,
			      paths[pi].name, fold, from, want, want ? es : 0, want ? ee : 0, got,
			      got ? m.start : 0, got ? m.end : 0);
			if (!want || !got)
				break;
			from = ee > es ? ee : es + 1;
			if (from > tlen)
				break;
		}
		/* the same iteration inside the engine (grep -o, --count-matches) */
		static struct collect lm;
		lm.n = 0;
		ac_scan_leftmost(ac, (const uint8_t *)text, tlen, 0, collect_cb, &lm);
		size_t nm = 0;
		for (size_t lf = 0, es, ee; lf <= tlen && naive_ll(pats, np, text, tlen, lf, fold, &es, &ee);
		     lf = ee > es ? ee : es + 1, nm++)
			CHECK(nm < lm.n && lm.start[nm] == es && lm.end[nm] == ee,
			      "%s, %s, fold %d: scan_leftmost match %zu: want [%zu,%zu)", name, paths[pi].name,
			      fold, nm, es, ee);
		CHECK(nm == lm.n, "%s, %s, fold %d: scan_leftmost: want %zu matches, got %zu", name, paths[pi].name,
		      fold, nm, lm.n);
		/* ac_count_leftmost's own loop counts the non-empty ones, from any offset */
		for (size_t f = 0; f <= tlen; f += 1 + tlen / 8) {
			size_t want_c = 0;
			for (size_t k = 0; k < lm.n && k < 4096; k++)
				want_c += lm.start[k] >= f && lm.end[k] > lm.start[k];
			size_t got_c = ac_count_leftmost(ac, (const uint8_t *)text, tlen, f);
			if (lm.n <= 4096 && !starts_inside(&lm, f))
				CHECK(got_c == want_c, "%s, %s, fold %d: count from %zu: want %zu got %zu", name,
				      paths[pi].name, fold, f, want_c, got_c);
		}
		/* first end from every offset */
		for (size_t f = 0; f <= tlen; f += 1 + tlen / 40) {
			ac_match m;
			long want = naive_first_end(pats, np, text, tlen, f, fold);
			int got = ac_find(ac, (const uint8_t *)text, tlen, f, AC_FIRST_END, &m);
			CHECK((want < 0 && !got) || (got && (long)m.end == want && m.start >= f),
			      "%s, %s, fold %d: first end from %zu: want %ld got %d/%zu", name, paths[pi].name,
			      fold, f, want, got, got ? m.end : 0);
		}
		static struct collect c;
		c.n = 0;
		ac_scan_overlapping(ac, (const uint8_t *)text, tlen, 0, collect_cb, &c);
		size_t want_n = naive_overlap_count(pats, np, text, tlen, fold);
		CHECK(c.n == want_n, "%s, %s, fold %d: overlapping: want %zu got %zu", name, paths[pi].name, fold,
		      want_n, c.n);
		size_t counted = ac_count_overlapping(ac, (const uint8_t *)text, tlen, 0);
		CHECK(counted == want_n, "%s, %s, fold %d: ac_count_overlapping: want %zu got %zu", name,
		      paths[pi].name, fold, want_n, counted);
		if (c.n != want_n) {
			for (size_t k = 0; k < np; k++)
				fprintf(stderr, "  pattern '%s'\n", pats[k]);
			fprintf(stderr, "  text %zu bytes:", tlen);
			for (size_t k = 0; k < tlen; k++)
				fprintf(stderr, " %02x", (unsigned char)text[k]);
			fprintf(stderr, "\n");
		}
		ac_free(ac);
	}
}

/* Every leftmost-longest match of ac in text as "start-end:id " into out. */
static void all_matches(const ac_automaton *ac, const char *text, size_t len, char *out, size_t cap)
{
	size_t used = 0, from = 0;
	ac_match m;
	out[0] = '\0';
	while (from <= len && ac_find(ac, (const uint8_t *)text, len, from, AC_LEFTMOST_LONGEST, &m)) {
		used += (size_t)snprintf(out + used, cap - used, "%zu-%zu:%u ", m.start, m.end, m.pattern);
		from = m.end > m.start ? m.end : m.end + 1;
		if (used >= cap)
			break;
	}
}

/* Small sets whose leftmost-longest matches ("start-end:id ", as grep -o
 * walks a line) are worked out by hand, with ASCII folding too
 * (.expected_folded, when it differs); each also runs against the oracle. */
static const struct named_case {
	const char *name;
	const char *patterns[6];
	const char *text;
	const char *expected;
	const char *expected_folded;
} named_cases[] = {
	{ .name = "he, she, his, hers (Aho and Corasick's example)",
	  .patterns = { "he", "she", "his", "hers" }, .text = "ushers", .expected = "1-4:1 " },
	{ .name = "nested prefixes", .patterns = { "a", "ab", "abc" }, .text = "xabcabx",
	  .expected = "1-4:2 4-6:1 " },
	{ .name = "a duplicate reports the first id", .patterns = { "abc", "abc", "b" }, .text = "abcabc",
	  .expected = "0-3:0 3-6:0 " },
	{ .name = "a pattern and its extension", .patterns = { "foo", "foobar" }, .text = "foobar foo fo",
	  .expected = "0-6:1 7-10:0 " },
	{ .name = "the empty pattern matches everywhere", .patterns = { "" }, .text = "abc",
	  .expected = "0-0:0 1-1:0 2-2:0 3-3:0 " },
	{ .name = "the empty pattern loses to a longer one", .patterns = { "", "b" }, .text = "abc",
	  .expected = "0-0:0 1-2:1 2-2:0 3-3:0 " },
	{ .name = "empty text", .patterns = { "x" }, .text = "", .expected = "" },
	{ .name = "a run of one byte", .patterns = { "aaa", "aa" }, .text = "aaaaaaa", .expected = "0-3:0 3-6:0 " },
	{ .name = "a needle in a haystack", .patterns = { "needle" }, .text = "haystack haystack needle haystack",
	  .expected = "18-24:0 " },
	{ .name = "newline and CR in patterns", .patterns = { "a\nb", "\r" }, .text = "x\r\na\nb",
	  .expected = "1-2:1 3-6:0 " },
	{ .name = "case differs: only folding matches", .patterns = { "caB", "Ab" }, .text = "xxCABxab",
	  .expected = "", .expected_folded = "2-5:0 6-8:1 " },
	{ .name = "a longer pattern fails into a shorter one", .patterns = { "bcd", "abcde" }, .text = "abcdx",
	  .expected = "1-4:0 " },
	/* leftmost-longest looks past a match only while the bytes since
	 * its start still begin a pattern: through states that end none */
	{ .name = "a later match that starts earlier", .patterns = { "bcd", "cdefg", "abcdefgh" },
	  .text = "abcdefgh abcdefgx bcdefgh", .expected = "0-8:2 10-13:0 18-21:0 " },
	{ .name = "the empty pattern and a longer one past a miss", .patterns = { "", "a", "abcd", "bcdef" },
	  .text = "abcx abcd", .expected = "0-1:1 1-1:0 2-2:0 3-3:0 4-4:0 5-9:2 9-9:0 " },
	{ .name = "bytes 0x01 and 0xff", .patterns = { "\x01\xff", "\xff\xff" }, .text = "\xff\xff\x01\xff\xff",
	  .expected = "0-2:1 2-4:0 " },
};

static void named(void)
{
	for (size_t i = 0; i < sizeof named_cases / sizeof *named_cases; i++) {
		const struct named_case *c = &named_cases[i];
		size_t np = 0, len = strlen(c->text);
		while (np < 6 && c->patterns[np])
			np++;
		for (int fold = 0; fold < 2; fold++) {
			const char *want = fold && c->expected_folded ? c->expected_folded : c->expected;
			for (size_t pi = 0; pi < sizeof paths / sizeof *paths; pi++) {
				ac_automaton *ac = compiled(c->patterns, np, fold, pi, c->name);
				char got[256];
				all_matches(ac, c->text, len, got, sizeof got);
				CHECK(strcmp(got, want) == 0, "%s, %s, fold %d: matches \"%s\", want \"%s\"", c->name,
				      paths[pi].name, fold, got, want);
				ac_free(ac);
			}
			check_case(c->patterns, np, c->text, len, fold, c->name);
		}
	}
}

/* Matches at every offset around the 64-byte block edges. */
static void boundary_sweep(void)
{
	const char *pats[] = { "needle", "needlepoint", "dle" };
	char text[200];
	for (size_t off = 0; off < 140; off++) {
		memset(text, 'x', sizeof text);
		memcpy(text + off, "needle", 6);
		for (size_t len = off + 6; len <= off + 8 && len <= sizeof text; len++)
			check_case(pats, 3, text, len, 0, "sweep");
	}
	const char *one[] = { "Q" };
	for (size_t off = 0; off < 130; off++) {
		memset(text, 'y', sizeof text);
		text[off] = 'Q';
		check_case(one, 1, text, 130, 0, "sweep1");
	}
}

/* Teddy's candidates take a second look at their 3-4 byte window (the
 * hashed-window table) before the automaton confirms them: sets whose
 * fingerprints pass text the windows reject ("abcz", "ABC" then a short
 * tail), in texts ending at a guard page so that a window load past the
 * end faults, with and without folding. */
static void teddy_second_look(void)
{
	static const char *const sets[][4] = {
		{ "abcd", "abce", "xyzw", "qrstuv" },
		{ "abc", "abcdef", "zzz", "Zab" },
	};
	static const char *const texts[] = {
		"abcz abcd xyzv ABCE", "abcdef", "xxabc", "abcd", "ab", "zzabcabcabce", "xyz", "xyzw",
		"qrstu qrstuv QRSTUV abcabc", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabc",
	};
	struct guard_page g;
	bool mapped = guard_page_map(&g);
	CHECK(mapped, "guard pages");
	if (!mapped)
		return;
	for (size_t si = 0; si < sizeof sets / sizeof *sets; si++)
		for (size_t ti = 0; ti < sizeof texts / sizeof *texts; ti++)
			for (size_t cut = 0; cut < 4; cut++) {
				size_t tlen = strlen(texts[ti]) > cut ? strlen(texts[ti]) - cut : 0;
				char *at = (char *)g.end - tlen;
				memcpy(at, texts[ti], tlen);
				for (int fold = 0; fold < 2; fold++)
					check_case(sets[si], 4, at, tlen, fold, "teddy second look");
			}
	guard_page_free(&g);
}

static unsigned rng_state = 12345;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 16) % n;
}

static void random_cases(void)
{
	static const char alpha[] = "abAB\n_";
	for (int iter = 0; iter < 300; iter++) {
		char store[8][8];
		const char *pats[8];
		size_t np = 1 + rnd(6);
		for (size_t k = 0; k < np; k++) {
			size_t pl = rnd(10) == 0 ? 0 : 1 + rnd(5);
			for (size_t j = 0; j < pl; j++)
				store[k][j] = alpha[rnd(4)];
			store[k][pl] = 0;
			pats[k] = store[k];
		}
		char text[160];
		size_t tl = rnd(sizeof text);
		for (size_t j = 0; j < tl; j++)
			text[j] = alpha[rnd(sizeof alpha - 1)];
		check_case(pats, np, text, tl, (int)rnd(2), "random");
	}
}

/* Sets of 9-40 patterns: Teddy buckets shared by several fingerprints,
 * texts long enough for whole vector blocks. */
static void random_many(void)
{
	static const char alpha[] = "abcdAB \n";
	for (int iter = 0; iter < 120; iter++) {
		char store[40][8];
		const char *pats[40];
		size_t np = 9 + rnd(32);
		size_t min = iter % 2 ? 3 : 1; /* every other set suits the hashed windows */
		for (size_t k = 0; k < np; k++) {
			size_t pl = min + rnd(7 - (unsigned)min);
			for (size_t j = 0; j < pl; j++)
				store[k][j] = alpha[rnd(6)];
			store[k][pl] = 0;
			pats[k] = store[k];
		}
		char text[200];
		size_t tl = rnd(sizeof text);
		for (size_t j = 0; j < tl; j++)
			text[j] = alpha[rnd(sizeof alpha - 1)];
		check_case(pats, np, text, tl, (int)rnd(2), "random-many");
	}
}

/* A dictionary's shape: every lowercase letter begins a 1- or 2-byte
 * pattern, so Teddy's 1-byte fingerprints pass nearly every letter and
 * the scan steps a stretch from the first close candidate (dense_start):
 * texts of words, of digits with a word at each line's end, and both
 * mixed, where the stretches start and end at every kind of place. */
static void dictionary_shape(void)
{
	static const char *const pats[] = {
		"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q",
		"r", "s", "t", "u", "v", "w", "x", "y", "z", "an", "the", "them", "theme", "np",
		"zebra", "ab", "abc", "quick", "qu",
	};
	static const char *const pieces[] = { "the ", "them", "0123456789", "  ", "zebra", "\n", "Q7", "np\n", "9" };
	for (int iter = 0; iter < 40; iter++) {
		char text[400];
		size_t tl = 0;
		while (tl < sizeof text - 16) {
			const char *piece = pieces[rnd(iter % 2 ? 9 : 4)];
			memcpy(text + tl, piece, strlen(piece));
			tl += strlen(piece);
		}
		check_case(pats, sizeof pats / sizeof *pats, text, tl, (int)rnd(2), "dictionary-shape");
	}
}

/* A large set forces sparse (non-dense) states; compare with a small DFA. */
static void large_set(void)
{
	size_t n = 200000;
	ac_automaton *ac = ac_new(0);
	char buf[32];
	for (size_t i = 0; i < n; i++) {
		int l = snprintf(buf, sizeof buf, "w%zuq%zu", i * 7919 % 1000003, i);
		ac_add(ac, buf, (size_t)l);
	}
	CHECK(ac_compile(ac, AC_PATH_AUTO) == 0, "large compile");
	const char *text = "zz w123q9 w7919q1 w15838q2w23757q3 w0q0";
	size_t tl = strlen(text), from = 0, count = 0;
	ac_match m;
	while (ac_find(ac, (const uint8_t *)text, tl, from, AC_LEFTMOST_LONGEST, &m)) {
		count++;
		from = m.end;
	}
	CHECK(count == 4, "large set: want 4 matches, got %zu (states %zu)", count, ac_state_count(ac));
	CHECK(ac_count_leftmost(ac, (const uint8_t *)text, tl, 0) == 4, "large set: count %zu, want 4",
	      ac_count_leftmost(ac, (const uint8_t *)text, tl, 0));
	ac_free(ac);
}

/* Duplicates cost nothing: a set with every pattern added twice (the
 * copies in another order, some differing only in case under folding)
 * compiles to the same states and memory as the set itself, and a match
 * reports the first id of its duplicates. */
static void duplicates_cost_nothing(void)
{
	enum { N = 5000 };
	for (unsigned fold = 0; fold < 2; fold++) {
		ac_automaton *once = ac_new(fold ? AC_FOLD_ASCII : 0);
		ac_automaton *twice = ac_new(fold ? AC_FOLD_ASCII : 0);
		char p[32];
		for (unsigned i = 0; i < N; i++) {
			int n = snprintf(p, sizeof p, "k%uz%u", (i * 7919u) % N, i % 13);
			ac_add(once, p, (size_t)n);
			ac_add(twice, p, (size_t)n);
		}
		for (unsigned i = N; i-- > 0;) {
			int n = snprintf(p, sizeof p, "%c%uz%u", fold ? 'K' : 'k', (i * 7919u) % N, i % 13);
			ac_add(twice, p, (size_t)n);
		}
		CHECK(ac_compile(once, AC_PATH_AUTO) == 0 && ac_compile(twice, AC_PATH_AUTO) == 0,
		      "duplicates: compile");
		CHECK(ac_state_count(once) == ac_state_count(twice), "duplicates: states %zu vs %zu",
		      ac_state_count(once), ac_state_count(twice));
		CHECK(ac_memory_bytes(once) == ac_memory_bytes(twice), "duplicates: memory %zu vs %zu",
		      ac_memory_bytes(once), ac_memory_bytes(twice));
		ac_match m;
		const char *text = "xx k2919z1 yy";
		CHECK(ac_find(twice, (const uint8_t *)text, strlen(text), 0, AC_LEFTMOST_LONGEST, &m) &&
			      m.start == 3 && m.end == 10 && m.pattern == 1,
		      "duplicates: first id wins (fold %u)", fold);
		ac_free(once);
		ac_free(twice);
	}
	/* already in order, with adjacent duplicates (the store is rebuilt) and
	 * without (it is used as it is) */
	static const char *const sorted_dups[] = { "ab", "ab", "abc", "b", "b", "b" };
	static const char *const sorted_unique[] = { "ab", "abc", "b" };
	const char *text = "xx b abc";
	for (int dups = 0; dups < 2; dups++) {
		ac_automaton *ac = ac_new(0);
		const char *const *set = dups ? sorted_dups : sorted_unique;
		size_t n = dups ? 6 : 3;
		for (size_t i = 0; i < n; i++)
			ac_add(ac, set[i], strlen(set[i]));
		ac_match m, m2;
		CHECK(ac_compile(ac, AC_PATH_AUTO) == 0 && ac_state_count(ac) == 5,
		      "sorted set (dups %d): states %zu", dups, ac_state_count(ac));
		CHECK(ac_find(ac, (const uint8_t *)text, strlen(text), 0, AC_LEFTMOST_LONGEST, &m) &&
			      m.start == 3 && m.pattern == (dups ? 3u : 2u) &&
			      ac_find(ac, (const uint8_t *)text, strlen(text), 4, AC_LEFTMOST_LONGEST, &m2) &&
			      m2.start == 5 && m2.end == 8 && m2.pattern == (dups ? 2u : 1u),
		      "sorted set (dups %d): first ids", dups);
		ac_free(ac);
	}
}

/* Many copies of one pattern, fewer and more than an insertion-sorted
 * range holds (32), with nothing else in their range of the sort: the
 * first id still wins and the copies add no state. */
static void many_copies(void)
{
	static const int counts[] = { 5, 31, 33, 60 };
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		int copies = counts[c];
		ac_automaton *ac = ac_new(0);
		ac_add(ac, "other", 5);
		for (int i = 0; i < copies; i++) {
			ac_add(ac, "same", 4);
			ac_add(ac, "x", 1);
		}
		ac_match m;
		const char *text = "a same b";
		CHECK(ac_compile(ac, AC_PATH_AUTO) == 0 && ac_state_count(ac) == 11, "%d copies: states %zu",
		      copies, ac_state_count(ac));
		CHECK(ac_find(ac, (const uint8_t *)text, strlen(text), 0, AC_LEFTMOST_LONGEST, &m) &&
			      m.start == 2 && m.end == 6 && m.pattern == 1,
		      "%d copies: the first id wins (got %u)", copies, m.pattern);
		ac_free(ac);
	}
}

/* A set large enough to be sorted and linked on two threads (two thirds
 * of it under one prefix, so the largest range is split again; copies of
 * earlier patterns; 30 copies of one) compiles to the same automaton on
 * one thread and on two, and every pattern is found with the same id. */
static void two_threads_alike(void)
{
	enum { N = 100000 };
	static char text[N][16];
	static size_t len[N];
	static const char alpha[] = { 'a', 'b', 'c', '\0' };
	ac_automaton *one = ac_new(0), *two = ac_new(0);
	ac_set_threads(two, 2);
	for (size_t i = 0; i < N; i++) {
		if (i % 7 == 6) {
			memcpy(text[i], text[i / 2], sizeof text[i]);
			len[i] = len[i / 2];
		} else if (i % 1000 < 30) {
			memcpy(text[i], "cccc", 4);
			len[i] = 4;
		} else {
			size_t n = i % 3 ? 4 : 0;
			memcpy(text[i], "http", n);
			for (size_t k = 1 + rnd(10); k > 0; k--)
				text[i][n++] = alpha[rnd(4)];
			len[i] = n;
		}
		ac_add(one, text[i], len[i]);
		ac_add(two, text[i], len[i]);
	}
	CHECK(ac_compile(one, AC_PATH_AUTO) == 0 && ac_compile(two, AC_PATH_AUTO) == 0, "two threads: compile");
	CHECK(ac_state_count(one) == ac_state_count(two) && ac_memory_bytes(one) == ac_memory_bytes(two),
	      "two threads: states %zu vs %zu", ac_state_count(one), ac_state_count(two));
	CHECK(ac_link_meetings(one) == 0 && ac_link_meetings(two) > 0, "two threads: linked on one thread (met %zu times)",
	      ac_link_meetings(two));
	size_t bad = 0;
	for (size_t i = 0; i < N; i++) {
		ac_match a, b;
		bool fa = ac_find(one, (const uint8_t *)text[i], len[i], 0, AC_LEFTMOST_LONGEST, &a);
		bool fb = ac_find(two, (const uint8_t *)text[i], len[i], 0, AC_LEFTMOST_LONGEST, &b);
		bad += fa != fb || (fa && (a.start != b.start || a.end != b.end || a.pattern != b.pattern));
	}
	CHECK(bad == 0, "two threads: %zu patterns found otherwise", bad);
	/* every match in a text that follows the failure links everywhere */
	static const char bytes[] = { 'a', 'b', 'c', '\0', 'h', 't', 'p' };
	static uint8_t hay[1 << 18];
	for (size_t k = 0; k < sizeof hay; k++)
		hay[k] = (uint8_t)bytes[rnd(sizeof bytes)];
	size_t matches = 0;
	bad = 0;
	for (size_t from = 0; from < sizeof hay;) {
		ac_match a, b;
		bool fa = ac_find(one, hay, sizeof hay, from, AC_LEFTMOST_LONGEST, &a);
		bool fb = ac_find(two, hay, sizeof hay, from, AC_LEFTMOST_LONGEST, &b);
		bad += fa != fb || (fa && (a.start != b.start || a.end != b.end || a.pattern != b.pattern));
		if (!fa || !fb)
			break;
		matches++;
		from = a.end > a.start ? a.end : a.end + 1;
	}
	CHECK(bad == 0 && matches > 10000, "two threads: %zu of %zu matches in a text differ", bad, matches);
	ac_free(one);
	ac_free(two);
}

/* A pattern of the sorted-set test: its bytes and length. */
struct sample {
	char b[8];
	size_t len;
};

static int sample_cmp(const void *x, const void *y)
{
	const struct sample *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->b, b->b, n);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* The trie of a big set with long runs of equal four-byte prefixes, short
 * patterns that pad to the same prefix ("a" and "a\0"), NUL and 0xff bytes
 * and many duplicates (the sort's every path): one state per distinct
 * prefix, and each pattern, searched for in itself, found whole with the
 * first id of its duplicates. */
static void sorted_set(void)
{
	enum { N = 20000 };
	static struct sample pats[N], prefixes[N * 8];
	static const char alpha[] = { 'a', 'b', '\0', (char)0xff };
	for (int fold = 0; fold < 2; fold++) {
		ac_automaton *ac = ac_new(fold ? AC_FOLD_ASCII : 0);
		size_t np = 0;
		for (size_t i = 0; i < N; i++) {
			pats[i].len = rnd(9); /* 0..8, the empty pattern too */
			for (size_t j = 0; j < pats[i].len; j++)
				pats[i].b[j] = alpha[rnd(4)];
			ac_add(ac, pats[i].b, pats[i].len);
			for (size_t j = 1; j <= pats[i].len; j++) {
				prefixes[np] = pats[i];
				prefixes[np++].len = j;
			}
		}
		qsort(prefixes, np, sizeof *prefixes, sample_cmp);
		size_t distinct = 0;
		for (size_t k = 0; k < np; k++)
			distinct += k == 0 || sample_cmp(&prefixes[k - 1], &prefixes[k]) != 0;
		CHECK(ac_compile(ac, AC_PATH_AUTO) == 0, "sorted set: compile");
		CHECK(ac_state_count(ac) == distinct + 1, "sorted set (fold %d): states %zu, want %zu", fold,
		      ac_state_count(ac), distinct + 1);
		size_t bad = 0;
		for (size_t i = 0; i < N; i++) {
			size_t first = 0;
			while (pats[first].len != pats[i].len || memcmp(pats[first].b, pats[i].b, pats[i].len) != 0)
				first++;
			ac_match m;
			bool found = ac_find(ac, (const uint8_t *)pats[i].b, pats[i].len, 0, AC_LEFTMOST_LONGEST, &m);
			bad += !found || m.start != 0 || m.end != pats[i].len || m.pattern != first;
		}
		CHECK(bad == 0, "sorted set (fold %d): %zu patterns not found whole with their first id", fold, bad);
		ac_free(ac);
	}
}

/* A malloc'd copy of n bytes, for ac_adopt_list. */
static void *copy_of(const void *p, size_t n)
{
	void *q = malloc(n);
	if (!q)
		abort();
	return memcpy(q, p, n);
}

/* ac_adopt_list is ac_add for each pattern in turn: the same states,
 * memory, ids and matches, with empty patterns, a NUL inside one, and case
 * folding; also when more patterns are added after it (the store then
 * moves into the automaton's own tables).  The separator byte's value is
 * ignored.  Adopting into an automaton that has patterns fails (and frees
 * the list: valgrind checks). */
static void adopted_equals_one_by_one(void)
{
	static const char list[] = "ab||Abc|b\0c||aB|"; /* "ab" "" "Abc" "b\0c" "" "aB" */
	static const uint32_t end[] = { 2, 3, 7, 11, 12, 15 };
	static const char text[] = "xx b\0c aB abc";
	for (unsigned fold = 0; fold < 2; fold++) {
		for (size_t adopted = 4; adopted <= 6; adopted += 2) {
			ac_automaton *one = ac_new(fold ? AC_FOLD_ASCII : 0);
			ac_automaton *all = ac_new(fold ? AC_FOLD_ASCII : 0);
			for (size_t k = 0; k < 6; k++) {
				size_t from = k ? end[k - 1] + 1 : 0;
				ac_add(one, list + from, end[k] - from);
			}
			bool added = ac_adopt_list(all, copy_of(list, end[adopted - 1] + 1),
						   copy_of(end, adopted * sizeof *end), adopted) == 0;
			for (size_t k = adopted; k < 6; k++)
				added = added && ac_add(all, list + end[k - 1] + 1, end[k] - end[k - 1] - 1) == 0;
			CHECK(ac_adopt_list(all, copy_of(list, 3), copy_of(end, sizeof *end), 1) == -1,
			      "list (fold %u, %zu adopted): adopting into a non-empty automaton", fold, adopted);
			CHECK(added && ac_compile(one, AC_PATH_AUTO) == 0 && ac_compile(all, AC_PATH_AUTO) == 0,
			      "list (fold %u, %zu adopted): compile", fold, adopted);
			CHECK(ac_state_count(one) == ac_state_count(all) &&
				      ac_memory_bytes(one) == ac_memory_bytes(all),
			      "list (fold %u, %zu adopted): states %zu vs %zu", fold, adopted,
			      ac_state_count(one), ac_state_count(all));
			char want[256], got[256];
			all_matches(one, text, sizeof text - 1, want, sizeof want);
			all_matches(all, text, sizeof text - 1, got, sizeof got);
			CHECK(strcmp(want, got) == 0 && strstr(got, "3-6:3 ") && strstr(got, fold ? "7-9:0 " : "7-9:5 "),
			      "list (fold %u, %zu adopted): matches \"%s\" vs \"%s\"", fold, adopted, got, want);
			ac_free(one);
			ac_free(all);
		}
	}
}

/* Each cap of the paths table picks the kernel it names where this CPU
 * runs it, and the CPU's widest elsewhere (a cap above it, or one of the
 * other architecture: --simd=avx2 on aarch64 runs NEON). */
static void caps_pick_kernels(void)
{
	for (size_t pi = 0; pi < sizeof paths / sizeof *paths; pi++) {
		if (paths[pi].path != AC_PATH_TEDDY)
			continue;
		enum simd_level cap = paths[pi].simd;
		ac_automaton *ac = compiled((const char *const[]){ "probe" }, 1, 0, pi, "caps");
		enum simd_level want = simd_runs(cap) ? cap : simd_cpu_level();
		CHECK(ac_scan_path_used(ac) == AC_PATH_TEDDY && ac_simd_used(ac) == want,
		      "%s: kernel %d, want %d", paths[pi].name, (int)ac_simd_used(ac), (int)want);
		ac_free(ac);
	}
}

int main(void)
{
	static const char *const kernels[] = {
		[SIMD_SCALAR] = "scalar", [SIMD_SSSE3] = "SSSE3", [SIMD_AVX2] = "AVX2", [SIMD_AVX512] = "AVX-512BW",
		[SIMD_NEON] = "NEON",
	};
	ac_automaton *probe = ac_new(0);
	ac_add(probe, "probe", 5);
	ac_compile(probe, AC_PATH_TEDDY);
	printf("Teddy kernels up to %s run on this CPU; wider ones are tested as that one\n",
	       kernels[ac_simd_used(probe)]);
	ac_free(probe);
	caps_pick_kernels();
	named();
	boundary_sweep();
	teddy_second_look();
	random_cases();
	random_many();
	dictionary_shape();
	large_set();
	duplicates_cost_nothing();
	sorted_set();
	many_copies();
	two_threads_alike();
	adopted_equals_one_by_one();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
