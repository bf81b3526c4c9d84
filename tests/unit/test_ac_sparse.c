/* SPDX-License-Identifier: MIT */
/* test_ac_sparse.c - the engine's scans where most states are sparse.
 *
 * Owns: a set large and wide enough that most of its states have no dense
 * row (tens of thousands of short patterns over four letters, and one
 * pattern of 70 other bytes that makes every row 128 classes wide), over
 * text of the same four letters, so nearly every byte ends a match and
 * every step can follow failure links through sparse states: the
 * leftmost-longest look-ahead (which stops following them below the depth
 * it needs), its count (ac_count_leftmost's own loop) and the overlapping
 * scan and its count must give the oracle's matches, also with spaces (in no pattern)
 * strewn over the text.  Once
 * more with every byte value in some pattern, so that the 257th byte class
 * wraps to class 0, which is otherwise the bytes in no pattern: a sparse
 * state's child on byte 0xff must still be followed.  And a look-ahead
 * whose failure link lands exactly one byte short of the depth it needs
 * (where the match starts) must take that state's child: "urgency"
 * against urgencies, ency and en among 60,000 other words is "ency".  The
 * oracle looks every substring of up to MAX_LEN bytes up in the sorted
 * pattern list, with and without ASCII folding.
 */
#include "ac.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N_PATS 40000
#define MAX_LEN 12
#define TEXT_LEN 6000

static char pats[N_PATS][MAX_LEN + 1];
static char *sorted[N_PATS];
static size_t n_sorted;

static unsigned rng = 2026;
static unsigned rnd(unsigned n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 16) % n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether text[s..s+len) is a pattern (the text's letters are lowercase
 * and so are the patterns: folding changes nothing the oracle sees). */
static int is_pattern(const char *text, size_t s, size_t len)
{
	char key[MAX_LEN + 1];
	const char *k = key;
	memcpy(key, text + s, len);
	key[len] = 0;
	return bsearch(&k, sorted, n_sorted, sizeof *sorted, cmp_str) != NULL;
}

struct tally {
	size_t n, bad;
	const char *text;
	size_t len, next; /* leftmost-longest: where the oracle's next match starts looking */
};

/* The oracle's leftmost-longest match at or after from: its end, and *start. */
static size_t oracle_ll(const char *text, size_t len, size_t from, size_t *start)
{
	for (size_t s = from; s < len; s++)
		for (size_t l = MAX_LEN; l >= 1; l--)
			if (s + l <= len && is_pattern(text, s, l)) {
				*start = s;
				return s + l;
			}
	return 0;
}

static int ll_cb(const ac_match *m, void *ctx)
{
	struct tally *t = ctx;
	size_t s = 0, e = oracle_ll(t->text, t->len, t->next, &s);
	if (e == 0 || m->start != s || m->end != e)
		t->bad++;
	t->next = m->end;
	t->n++;
	return 0;
}

static int over_cb(const ac_match *m, void *ctx)
{
	struct tally *t = ctx;
	if (!is_pattern(t->text, m->start, m->end - m->start))
		t->bad++;
	t->n++;
	return 0;
}

static void check_scans(const char *text, int fold, int all_bytes)
{
	ac_automaton *ac = ac_new(fold ? AC_FOLD_ASCII : 0);
	for (size_t k = 0; k < N_PATS; k++)
		ac_add(ac, pats[k], strlen(pats[k]));
	char wide[256];
	size_t n_wide = 0;
	for (int b = all_bytes ? 0 : 0x80; b < (all_bytes ? 256 : 0x80 + 70); b++)
		if (b < 'a' || b > 'd') /* bytes the text never holds, or 0xff */
			wide[n_wide++] = (char)b;
	ac_add(ac, wide, n_wide);
	CHECK(ac_compile(ac, AC_PATH_AUTO) == 0, "fold %d: compile", fold);
	if (all_bytes)
		fold += 2; /* the messages' case number */
	/* past 65,536 states: a large set, whose scans step past class 0 */
	CHECK(ac_state_count(ac) > 65536, "fold %d: %zu states (want most sparse)", fold, ac_state_count(ac));

	struct tally ll = { .text = text, .len = TEXT_LEN };
	ac_scan_leftmost(ac, (const uint8_t *)text, TEXT_LEN, 0, ll_cb, &ll);
	size_t s = 0, after = oracle_ll(text, TEXT_LEN, ll.next, &s);
	CHECK(ll.bad == 0 && after == 0 && ll.n > TEXT_LEN / 8,
	      "fold %d: leftmost-longest: %zu matches, %zu wrong, one more from %zu: %d", fold, ll.n, ll.bad,
	      ll.next, after != 0);
	size_t counted = ac_count_leftmost(ac, (const uint8_t *)text, TEXT_LEN, 0);
	CHECK(counted == ll.n, "fold %d: ac_count_leftmost %zu, want %zu", fold, counted, ll.n);

	size_t want = 0;
	for (size_t e = 1; e <= TEXT_LEN; e++)
		for (size_t l = 1; l <= MAX_LEN && l <= e; l++)
			want += (size_t)is_pattern(text, e - l, l);
	struct tally ov = { .text = text, .len = TEXT_LEN };
	ac_scan_overlapping(ac, (const uint8_t *)text, TEXT_LEN, 0, over_cb, &ov);
	CHECK(ov.bad == 0 && ov.n == want, "fold %d: overlapping: %zu matches (want %zu), %zu wrong", fold, ov.n,
	      want, ov.bad);
	counted = ac_count_overlapping(ac, (const uint8_t *)text, TEXT_LEN, 0);
	CHECK(counted == want, "fold %d: ac_count_overlapping %zu, want %zu", fold, counted, want);
	ac_free(ac);
}

/* The look-ahead's failure link one byte short of the depth it needs. */
static void lookahead_floor(void)
{
	ac_automaton *ac = ac_new(0);
	char w[10];
	for (int k = 0; ac && k < 60000; k++) { /* letters that "urgency" has none of */
		size_t len = 4 + rnd(6);
		for (size_t j = 0; j < len; j++)
			w[j] = "bdfhjkmpqvwxz"[rnd(13)];
		ac_add(ac, w, len);
	}
	ac_add(ac, "urgencies", 9);
	ac_add(ac, "ency", 4);
	ac_add(ac, "en", 2);
	CHECK(ac && ac_compile(ac, AC_PATH_AUTO) == 0, "look-ahead floor: compile");
	ac_match m = { 0 };
	const char *text = "x urgency";
	CHECK(ac_find(ac, (const uint8_t *)text, strlen(text), 0, AC_LEFTMOST_LONGEST, &m) &&
		      m.start == 5 && m.end == 9,
	      "look-ahead floor: [%zu, %zu), want ency [5, 9)", m.start, m.end);
	ac_free(ac);
}

/* sorted[0..n_sorted): the distinct patterns, in strcmp order. */
static void sort_patterns(void)
{
	for (size_t k = 0; k < N_PATS; k++)
		sorted[k] = pats[k];
	qsort(sorted, N_PATS, sizeof *sorted, cmp_str);
	n_sorted = 0;
	for (size_t k = 0; k < N_PATS; k++)
		if (n_sorted == 0 || strcmp(sorted[n_sorted - 1], sorted[k]) != 0)
			sorted[n_sorted++] = sorted[k];
}

int main(void)
{
	static char text[TEXT_LEN + 1];
	for (size_t k = 0; k < N_PATS; k++) {
		size_t len = 3 + rnd(MAX_LEN - 2);
		for (size_t j = 0; j < len; j++)
			pats[k][j] = "abcd"[rnd(4)];
		pats[k][len] = 0;
	}
	for (size_t k = 0; k < 200; k++) /* short ones too: matches on nearly every byte */
		pats[k][1 + k % 2] = 0;
	sort_patterns();
	for (size_t j = 0; j < TEXT_LEN; j++)
		text[j] = "abcd"[rnd(4)];
	check_scans(text, 0, 0);
	check_scans(text, 1, 0);
	/* spaces, in no pattern: the steps past class 0 back to the start state */
	static char spaced[TEXT_LEN + 1];
	memcpy(spaced, text, TEXT_LEN);
	for (size_t j = rnd(9); j < TEXT_LEN; j += 1 + rnd(9))
		spaced[j] = ' ';
	check_scans(spaced, 0, 0);
	/* a pattern ending in 0xff after a deep (sparse) state, and that
	 * pattern in the text: with all_bytes, 0xff is the wrapped class 0 */
	static const char deep_ff[] = "abcabcab\xff";
	memcpy(pats[N_PATS - 1], deep_ff, sizeof deep_ff);
	sort_patterns();
	for (size_t j = 100; j + sizeof deep_ff < TEXT_LEN; j += 500)
		memcpy(text + j, deep_ff, sizeof deep_ff - 1);
	check_scans(text, 0, 1);
	lookahead_floor();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
