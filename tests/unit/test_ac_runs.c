/* SPDX-License-Identifier: MIT */
/* test_ac_runs.c - counting a large set's matches run by run (ac_runs.c).
 *
 * Owns: ac_count_runs against ac_count_leftmost and ac_count_overlapping
 * (test_ac_sparse.c checks those against an oracle), both ways, with and
 * without ASCII folding, over texts that take each of its paths: runs
 * repeated (memo hits) in mixed case, a third alike in their first 8
 * bytes, runs longer than the memo keeps, a text of unique runs that makes
 * it give the memo up, one without a byte in no pattern, runs that end the
 * text at a guard page (its key loads), and memos of one entry (every run
 * evicts), of a size not a power of two and of none.  And ac_run_memo_bytes: none for a small set, a set with the
 * empty pattern or a short text.
 */
#include "ac.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "guard_page.h"

#define N_PATS 30000
#define VOCAB 300
#define TEXT_LEN (600u << 10)

static unsigned rng = 7;
static unsigned rnd(unsigned n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 16) % n;
}

/* A random word of lo..hi letters from "abcdefgh", upper case with
 * probability 1/upper_in (0: never). */
static size_t word(char *w, unsigned lo, unsigned hi, unsigned upper_in)
{
	size_t n = lo + rnd(hi - lo + 1);
	for (size_t k = 0; k < n; k++)
		w[k] = (char)((upper_in && rnd(upper_in) == 0 ? 'A' : 'a') + rnd(8));
	return n;
}

static ac_automaton *large_set(unsigned flags)
{
	char w[16];
	rng = 7;
	ac_automaton *ac = ac_new(flags);
	for (size_t k = 0; k < N_PATS; k++)
		ac_add(ac, w, word(w, 1, 12, 0));
	CHECK(ac_compile(ac, AC_PATH_AUTO) == 0 && ac_state_count(ac) > 65536, "large set: %zu states",
	      ac_state_count(ac));
	return ac;
}

/* Words separated by bytes in no pattern: from a vocabulary of VOCAB (some
 * longer than 16 bytes) where `repeat`, else each drawn anew. */
static size_t make_text(char *text, size_t cap, bool repeat, bool separators)
{
	static char vocab[VOCAB][24];
	static size_t vlen[VOCAB];
	for (size_t v = 0; v < VOCAB; v++) /* a third share their first 8 bytes */
		vlen[v] = v % 3 == 1 ? 8 + word((char *)memcpy(vocab[v], "abcdefgh", 8) + 8, 1, 8, 4)
				     : word(vocab[v], 1, v % 10 == 0 ? 22 : 9, 4);
	size_t n = 0;
	while (n + 32 < cap) {
		if (repeat) {
			size_t v = rnd(VOCAB);
			memcpy(text + n, vocab[v], vlen[v]);
			n += vlen[v];
		} else {
			n += word(text + n, 4, 14, 4);
		}
		if (separators)
			text[n++] = " \n,.-'"[rnd(6)];
	}
	return n;
}

static void compare(const ac_automaton *ac, const uint8_t *text, size_t len, const char *what)
{
	size_t sizes[] = { ac_run_memo_bytes(ac, len), 32, 1000, 0 };
	size_t want[2] = { ac_count_leftmost(ac, text, len, 0), ac_count_overlapping(ac, text, len, 0) };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		void *memo = calloc(1, sizes[k] + 1);
		for (int over = 0; over < 2; over++) {
			memset(memo, 0, sizes[k] + 1);
			size_t got = ac_count_runs(ac, text, len, over, memo, sizes[k]);
			CHECK(got == want[over], "%s, memo %zu bytes, %s: %zu, want %zu", what, sizes[k],
			      over ? "overlapping" : "leftmost-longest", got, want[over]);
		}
		free(memo);
	}
}

/* Counted a piece at a time (pieces ending after a byte in no pattern,
 * as a search's lines do) with one kept memo, restarted or not between
 * texts: the sum is the whole text's count; the memo given up on the way
 * where expect_given_up is 1 (unique words, folded: unfolded, their
 * capitals cut them into short runs that repeat), kept where it is 0. */
static void kept(const ac_automaton *ac, const uint8_t *text, size_t len, const char *what,
		 struct ac_run_memo *memo, int expect_given_up)
{
	for (int over = 0; over < 2; over++) {
		size_t want = over ? ac_count_overlapping(ac, text, len, 0) : ac_count_leftmost(ac, text, len, 0);
		size_t got = 0, at = 0;
		struct ac_run_memo fresh = { .table = memo->table, .table_bytes = memo->table_bytes };
		*memo = fresh;
		memset(memo->table, 0, memo->table_bytes);
		while (at < len) {
			size_t end = at + 1 + rnd(300);
			while (end < len && !strchr(" \n,.-'", (char)text[end - 1]))
				end++;
			end = end < len ? end : len;
			got += ac_count_runs_kept(ac, text + at, end - at, over, memo);
			at = end;
		}
		CHECK(got == want, "%s, kept memo, %s: %zu, want %zu", what,
		      over ? "overlapping" : "leftmost-longest", got, want);
		CHECK(expect_given_up < 0 || memo->given_up == expect_given_up, "%s, kept memo, %s: given up %d", what,
		      over ? "overlapping" : "leftmost-longest", memo->given_up);
	}
}

static void texts(unsigned flags)
{
	ac_automaton *ac = large_set(flags);
	char *text = malloc(TEXT_LEN);
	size_t len = make_text(text, TEXT_LEN, true, true);
	CHECK(ac_run_memo_bytes(ac, len) > 0, "flags %u: a memo for %zu bytes", flags, len);
	compare(ac, (const uint8_t *)text, len, flags ? "repeated, folded" : "repeated");
	struct ac_run_memo memo = { .table_bytes = ac_run_memo_bytes(ac, SIZE_MAX) };
	memo.table = calloc(1, memo.table_bytes);
	kept(ac, (const uint8_t *)text, len, "repeated", &memo, 0);
	len = make_text(text, TEXT_LEN, false, true);
	compare(ac, (const uint8_t *)text, len, flags ? "unique, folded" : "unique");
	kept(ac, (const uint8_t *)text, len, "unique", &memo, flags ? 1 : -1);
	free(memo.table);
	len = make_text(text, 20000, true, false);
	compare(ac, (const uint8_t *)text, len, "no byte in no pattern");

	struct guard_page g;
	if (guard_page_map(&g)) {
		for (size_t tail = 0; tail < 40; tail++) { /* the text's last run ends at the guard */
			size_t n = make_text((char *)g.start, g.page, true, true);
			n -= n > 0 && strchr(" \n,.-'", (char)g.start[n - 1]) != NULL;
			size_t keep = n > tail ? n - tail : n;
			uint8_t *at = g.end - keep;
			memmove(at, g.start, keep);
			compare(ac, at, keep, "ending at a guard page");
		}
		guard_page_free(&g);
	}
	free(text);
	ac_free(ac);
}

static void memo_sizes(void)
{
	ac_automaton *small = ac_new(0);
	ac_add(small, "word", 4);
	ac_compile(small, AC_PATH_AUTO);
	CHECK(ac_run_memo_bytes(small, 1u << 20) == 0, "a small set counts without a memo");
	ac_free(small);

	ac_automaton *ac = large_set(0);
	CHECK(ac_run_memo_bytes(ac, 1000) == 0, "a short text counts without a memo");
	size_t one = ac_run_memo_bytes(ac, 1u << 20), big = ac_run_memo_bytes(ac, SIZE_MAX);
	CHECK(one > 0 && big >= one && big <= (4u << 20), "memo sizes %zu, %zu", one, big);
	ac_free(ac);

	char w[16];
	rng = 7;
	ac = ac_new(0);
	ac_add(ac, "", 0);
	for (size_t k = 0; k < N_PATS; k++)
		ac_add(ac, w, word(w, 1, 12, 0));
	ac_compile(ac, AC_PATH_AUTO);
	CHECK(ac_run_memo_bytes(ac, 1u << 20) == 0, "the empty pattern counts without a memo");
	ac_free(ac);
}

int main(void)
{
	texts(0);
	texts(AC_FOLD_ASCII);
	memo_sizes();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
