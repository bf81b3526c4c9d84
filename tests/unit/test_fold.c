/* SPDX-License-Identifier: MIT */
/* test_fold.c - -i in a UTF-8 locale: fold_utf8.c and the folding matcher.
 *
 * fold_decode against the C library's mbrtowc; canonical forms and facts
 * of patterns; folded windows, their map back to the text and character
 * boundaries, on random text; and the matcher (matcher_ac_new with -i in
 * C.UTF-8) against a brute-force oracle built on mbrtowc and towupper
 * alone, on random text with lines long enough to be cut into several
 * windows: the first line with a match (grep's DFA relation) and the
 * leftmost-longest match (its regex relation) from many starts.
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "check.h"
#include "fold/fold_utf8.h"
#include "match/matcher.h"
#include "pattern_list.h"

/* ---- decoding ---- */

static size_t libc_decode(const unsigned char *s, size_t n, uint32_t *wc)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	wchar_t w;
	size_t r = mbrtowc(&w, (const char *)s, n, &st);
	if (r == (size_t)-1 || r == (size_t)-2)
		return 0;
	*wc = (uint32_t)w;
	return r ? r : 1;
}

static void test_decode(void)
{
	static const unsigned char tails[] = { 0x00, 0x41, 0x7F, 0x80, 0x84, 0x8F, 0x90,
					       0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xF4, 0xFF };
	long bad = 0, n = 0;
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b++)
			for (size_t i = 0; i < sizeof tails; i++)
				for (size_t j = 0; j < sizeof tails; j++)
					for (size_t len = 1; len <= 6; len++) {
						unsigned char s[6] = { (unsigned char)a, (unsigned char)b,
								       tails[i], tails[j], 0x80, 0x81 };
						uint32_t w1 = 0, w2 = 0;
						size_t l1 = fold_decode(s, len, &w1), l2 = libc_decode(s, len, &w2);
						n++;
						if (l1 != l2 || (l1 && w1 != w2))
							bad++;
						if (a < 0xC0 || b >= 0xC0)
							len = 6; /* the rest cannot change */
					}
	CHECK(bad == 0, "fold_decode differs from mbrtowc in %ld of %ld", bad, n);
	/* 5- and 6-byte forms and the largest values glibc accepts */
	const unsigned char big[][6] = { { 0xF4, 0x90, 0x80, 0x80 }, { 0xF8, 0x88, 0x80, 0x80, 0x80 },
					 { 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF }, { 0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF } };
	for (size_t k = 0; k < sizeof big / sizeof *big; k++) {
		uint32_t w1 = 0, w2 = 0;
		size_t l1 = fold_decode(big[k], 6, &w1), l2 = libc_decode(big[k], 6, &w2);
		CHECK(l1 == l2 && w1 == w2, "long form %zu: %zu/%zu", k, l1, l2);
	}
}

/* ---- patterns ---- */

static void check_fold(const struct fold_table *t, const char *p, const char *want, bool invalid,
		       bool narrow, bool needs)
{
	char out[64];
	struct fold_facts f;
	size_t n = fold_pattern(t, p, strlen(p), out, &f);
	CHECK(n == strlen(want) && memcmp(out, want, n) == 0, "fold of \"%s\"", p);
	CHECK(f.invalid == invalid && f.narrow == narrow && f.needs_fold == needs,
	      "facts of \"%s\": %d %d %d", p, f.invalid, f.narrow, f.needs_fold);
}

static void test_patterns(const struct fold_table *t)
{
	check_fold(t, "abc", "abc", false, false, false);
	check_fold(t, "kK", "kK", false, false, false);     /* K-sign is no counterpart of k */
	check_fold(t, "si", "si", false, false, true);      /* ſ and ı are */
	check_fold(t, "\xc5\xbf\xc4\xb1", "SI", false, false, true);
	check_fold(t, "\xc4\xb0", "\xc4\xb0", false, false, false); /* İ: no counterpart */
	check_fold(t, "caf\xc3\xa9", "caf\xc3\x89", false, false, true);
	check_fold(t, "\xcf\x82\xcf\x83", "\xce\xa3\xce\xa3", false, false, true);
	check_fold(t, "\xc9\x90", "\xe2\xb1\xaf", false, false, true); /* 2 bytes to 3 */
	check_fold(t, "\xe2\xb1\xa5", "\xc8\xba", false, false, true); /* 3 bytes to 2 */
	check_fold(t, "\xe2\x82\xac", "\xe2\x82\xac", false, false, false); /* no case */
	check_fold(t, "\xe2\x84\xaa", "\xe2\x84\xaa", false, false, false); /* K-sign: alone */
	check_fold(t, "x\xac", "x\xac", true, false, true);
	check_fold(t, "\xc3", "\xc3", true, false, true);
	check_fold(t, "\xe1\xb2\x80", "\xd0\x92", false, true, true); /* U+1C80 folds to В */
	check_fold(t, "", "", false, false, false);
}

/* ---- windows ---- */

/* Pieces random text is made of: ASCII (the first 9, the newline made 'a'
 * in patterns), characters folding to the same length, to another length,
 * DFA-narrow ones, bytes that are none (the last 6). */
static const char *const pieces[] = {
	"a", "b", "I", "i", "s", "S", "k", " ", "\n", "_", "\xc4\xb1", "\xc5\xbf", "\xc4\xb0",
	"\xc3\xa9", "\xc3\x89", "\xcf\x82", "\xce\xa3", "\xcf\x83", "\xc9\x90", "\xe2\xb1\xaf",
	"\xe2\xb1\xa5", "\xc8\xba", "\xe2\x84\xaa", "\xe1\xb2\x80", "\xd0\xb2", "\xd0\x92",
	"\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xac", "\xc3", "\xe2\x82", "\xff", "\xf0\x90\x90\x80",
};
#define N_PIECES (sizeof pieces / sizeof *pieces)

static uint64_t rng_state = 88172645463325252u;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

/* Random text of about n bytes from pieces[0..np) other than the newline,
 * which ends a line with probability 1/line_len at each piece. */
static char *random_text(size_t n, unsigned np, unsigned line_len, size_t *len)
{
	char *s = malloc(n + 8);
	size_t o = 0;
	while (o < n) {
		unsigned k = rnd(np);
		const char *p = rnd(line_len) == 0 ? "\n" : k == 8 ? "a" : pieces[k];
		size_t l = strlen(p);
		if (o + l > n)
			break;
		memcpy(s + o, p, l);
		o += l;
	}
	*len = o;
	return s;
}

static void test_windows(const struct fold_table *t)
{
	for (int round = 0; round < 200; round++) {
		size_t n;
		char *s = random_text(1 + rnd(400), N_PIECES, 30, &n);
		size_t from = fold_char_ceil(s, n, rnd((unsigned)n + 1));
		struct fold_window w;
		fold_window(t, s, from, n, round & 1, &w);
		CHECK(fold_to_text(&w, 0) == from && fold_to_text(&w, w.len) == n, "window ends");
		size_t last = from;
		bool ok = true;
		for (size_t f = 0; f <= w.len; f++) {
			if (!fold_is_boundary(w.text, w.len, f))
				continue;
			size_t o = fold_to_text(&w, f);
			ok &= o >= last && fold_is_boundary(s, n, o) && fold_floor(&w, o) == f;
			ok &= f == 0 || o > last;
			last = o;
		}
		CHECK(ok, "boundaries map onto boundaries, in order (round %d)", round);
		/* every text boundary is a folded one; text between floors */
		size_t count_t = 0, count_f = 0;
		for (size_t o = from; o <= n; o++) {
			count_t += fold_is_boundary(s, n, o);
			size_t f = fold_floor(&w, o);
			ok &= fold_to_text(&w, f) <= o && fold_is_boundary(w.text, w.len, f);
		}
		for (size_t f = 0; f <= w.len; f++)
			count_f += fold_is_boundary(w.text, w.len, f);
		CHECK(ok && count_t == count_f, "floors (round %d): %zu against %zu boundaries", round,
		      count_t, count_f);
		free(s);
	}
}

/* ---- the matcher against an oracle ---- */

/* A character of text or pattern: a code point, or a byte that is none
 * (bit 31 set). */
static size_t char_at(const char *s, size_t n, size_t i, uint32_t *c)
{
	size_t l = libc_decode((const unsigned char *)s + i, n - i, c);
	if (l == 0)
		*c = 0x80000000u | (unsigned char)s[i];
	return l ? l : 1;
}

static bool narrow_char(uint32_t d)
{
	return d >= 0x1C80 && d <= 0x1C88; /* C.UTF-8's, see fold_utf8.h */
}

/* Does pattern p match text s at i, ending at *e?  dfa: grep's DFA
 * relation, else its regex one. */
static bool oracle_at(struct pattern p, const char *s, size_t n, size_t i, bool dfa, size_t *e)
{
	for (size_t k = 0; k < p.len;) {
		if (i >= n || s[i] == '\n')
			return false;
		uint32_t c, d;
		k += char_at(p.bytes, p.len, k, &c);
		i += char_at(s, n, i, &d);
		if (c == d)
			continue;
		if ((c | d) & 0x80000000u || towupper(c) != towupper(d) || (dfa && narrow_char(d)))
			return false;
	}
	*e = i;
	return true;
}

/* The oracle's leftmost-longest match from `from` (dfa: any match, its
 * line's first). */
static bool oracle_find(const struct pattern *pats, size_t np, const char *s, size_t n, size_t from,
			bool dfa, size_t *ms, size_t *me)
{
	for (size_t i = from; i <= n;) {
		bool found = false;
		for (size_t k = 0; k < np; k++) {
			size_t e;
			if (oracle_at(pats[k], s, n, i, dfa, &e) && (!found || e > *me)) {
				*ms = i;
				*me = e;
				found = true;
			}
		}
		if (found)
			return true;
		if (i == n)
			break;
		uint32_t c;
		i += char_at(s, n, i, &c);
	}
	return false;
}

static size_t line_of(const char *s, size_t p)
{
	while (p > 0 && s[p - 1] != '\n')
		p--;
	return p;
}

static void test_matcher_once(size_t text_size, unsigned line_len, unsigned pat_max, unsigned np_max,
			      unsigned pat_pieces, int round)
{
	struct pattern pats[6];
	char *own[6];
	size_t np = 1 + rnd(np_max);
	for (size_t k = 0; k < np; k++) {
		size_t len;
		do /* valid pieces only (the oracle's patterns), no newline */
			own[k] = random_text(1 + rnd(pat_max), pat_pieces, UINT32_MAX, &len);
		while (len == 0 && (free(own[k]), true));
		pats[k] = (struct pattern){ .bytes = own[k], .len = len };
	}
	size_t n;
	char *s = random_text(text_size, N_PIECES, line_len, &n);
	for (int c = 0; c < 3 && n > 0; c++) { /* plant a few copies */
		struct pattern p = pats[rnd((unsigned)np)];
		size_t at = fold_char_ceil(s, n, rnd((unsigned)n));
		if (at + p.len < n && !memchr(s + at, '\n', p.len))
			memcpy(s + at, p.bytes, p.len);
	}
	struct pattern_set ps = pattern_list(pats, np);
	struct match_options mo = { .ignore_case = true, .utf8 = true, .eol = '\n', .threads = 1 };
	const char *err;
	struct matcher *m = matcher_ac_new(&ps, &mo, &err);
	CHECK(m != NULL, "matcher: %s", err ? err : "?");
	bool ok_line = true, ok_exact = true;
	for (int t = 0; t < 12 && m; t++) {
		size_t from = t == 0 ? 0 : line_of(s, rnd((unsigned)n + 1));
		size_t ms, me, os, oe;
		bool got = matcher_find(m, s, n, from, false, &ms, &me);
		/* line selection: the oracle's first line with a match under
		 * the DFA's relation, ignoring lines without any (regex) */
		bool want = oracle_find(pats, np, s, n, from, true, &os, &oe);
		ok_line &= got == want && (!got || line_of(s, ms) == line_of(s, os));
		from = fold_char_ceil(s, n, rnd((unsigned)n + 1));
		got = matcher_find(m, s, n, from, true, &ms, &me);
		want = oracle_find(pats, np, s, n, from, false, &os, &oe);
		ok_exact &= got == want && (!got || (ms == os && me == oe));
	}
	CHECK(ok_line, "line selection, round %d (text %zu, lines %u)", round, n, line_len);
	CHECK(ok_exact, "leftmost-longest, round %d (text %zu, lines %u)", round, n, line_len);
	matcher_free(m);
	for (size_t k = 0; k < np; k++)
		free(own[k]);
	free(s);
}

static void test_matcher(void)
{
	for (int round = 0; round < 300; round++)
		test_matcher_once(1 + rnd(2000), 1 + rnd(200), 1 + rnd(6), 5, 27, round);
	/* patterns all ASCII: the text searched in place, ı and ſ markers */
	for (int round = 0; round < 300; round++)
		test_matcher_once(1 + rnd(2000), 1 + rnd(200), 1 + rnd(6), 5, 9, 500 + round);
	/* lines cut into several windows, patterns of up to 400 bytes */
	for (int round = 0; round < 12; round++)
		test_matcher_once(20000 + rnd(200000), 1 + rnd(100000), 1 + rnd(400), 5, 27, 1000 + round);
	/* one long pattern: windows whose overlap reaches the end of the text */
	for (int round = 0; round < 30; round++)
		test_matcher_once(4000 + rnd(8000), 1 + rnd(100000), 500 + rnd(3000), 1, 27, 2000 + round);
}

int main(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8")) {
		printf("C.UTF-8 locale missing: skipped\n0 passed, 0 failed\n");
		return 0;
	}
	struct fold_table *t = fold_table_new();
	CHECK(t != NULL, "fold_table_new");
	test_decode();
	test_patterns(t);
	test_windows(t);
	test_matcher();
	fold_table_free(t);
	fold_release_scratch();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
