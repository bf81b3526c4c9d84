/* SPDX-License-Identifier: MIT */
/* test_ac_shapes.c - the engine on pattern sets of extreme shapes.
 *
 * One long pattern (random letters, one repeated byte, period 2), all the
 * suffixes of a string and b, ab, aab, ... (failure and output chains as
 * long as the set), long patterns sharing prefixes, and a wide set with a
 * long pattern among its words.  Each set is compiled on one thread and on
 * two, with and without ASCII folding: both automata must be alike and find
 * the matches worked out by hand, and the two threads must meet only at
 * wide depths (4,096 states and more): never for a set whose depths are all
 * narrow, at most twice per 4,096 states otherwise.  Meeting at every depth
 * costs a barrier per state along a long pattern, which these counts catch
 * without timing anything.
 */
#include "ac.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A pattern list under construction. */
struct set {
	char *bytes;
	size_t used, cap;
	size_t *start, *len;
	size_t n, n_cap;
};

static void set_add(struct set *s, const char *p, size_t len)
{
	if (s->used + len > s->cap) {
		s->cap = 2 * (s->used + len);
		s->bytes = realloc(s->bytes, s->cap);
	}
	if (s->n == s->n_cap) {
		s->n_cap = s->n_cap ? 2 * s->n_cap : 64;
		s->start = realloc(s->start, s->n_cap * sizeof *s->start);
		s->len = realloc(s->len, s->n_cap * sizeof *s->len);
	}
	if (!s->bytes || !s->start || !s->len) {
		fprintf(stderr, "test_ac_shapes: out of memory\n");
		exit(2);
	}
	memcpy(s->bytes + s->used, p, len);
	s->start[s->n] = s->used;
	s->len[s->n++] = len;
	s->used += len;
}

static void set_free(struct set *s)
{
	free(s->bytes);
	free(s->start);
	free(s->len);
	memset(s, 0, sizeof *s);
}

static unsigned rng_state = 2026;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 16) % n;
}

static char *random_letters(size_t n, unsigned alphabet)
{
	char *p = malloc(n ? n : 1);
	for (size_t i = 0; p && i < n; i++)
		p[i] = (char)('a' + rnd(alphabet));
	return p;
}

/* The overlapping matches of a scan, summed up. */
struct tally {
	size_t n, at_end;     /* matches; those ending at `end` */
	size_t end;
	uint64_t hash;        /* of every (start, end, pattern) in order */
	bool in_order;        /* those ending at `end`: starts 0, 1, 2, ... */
	size_t first_start, first_end;
	uint32_t first_pattern, last_pattern;
};

static int tally_cb(const ac_match *m, void *ctx)
{
	struct tally *t = ctx;
	if (t->n == 0) {
		t->first_start = m->start;
		t->first_end = m->end;
		t->first_pattern = m->pattern;
	}
	if (m->end == t->end) {
		t->in_order = t->in_order && m->start == t->at_end;
		t->at_end++;
		t->last_pattern = m->pattern;
	}
	t->n++;
	t->hash = (t->hash ^ m->start) * 0x100000001b3u;
	t->hash = (t->hash ^ m->end) * 0x100000001b3u;
	t->hash = (t->hash ^ m->pattern) * 0x100000001b3u;
	return 0;
}

static struct tally tally_of(const ac_automaton *ac, const char *text, size_t len, size_t end)
{
	struct tally t = { .end = end, .in_order = true, .hash = 0xcbf29ce484222325u };
	ac_scan_overlapping(ac, (const uint8_t *)text, len, 0, tally_cb, &t);
	return t;
}

static char *upper_copy(const char *p, size_t n)
{
	char *u = malloc(n ? n : 1);
	for (size_t i = 0; u && i < n; i++)
		u[i] = p[i] >= 'a' && p[i] <= 'z' ? (char)(p[i] - 32) : p[i];
	return u;
}

/* Compiles set s on one thread and on two (folding or not), checks that
 * they agree on states, memory and every overlapping match in text[0..len)
 * (upper-cased when folding), and returns the one-thread tally (ending at
 * `end`); *meetings gets the two-thread automaton's ac_link_meetings and
 * *states its state count. */
static struct tally compile_both(const char *name, const struct set *s, bool fold, const char *text,
				 size_t len, size_t end, size_t *meetings, size_t *states)
{
	ac_automaton *one = ac_new(fold ? AC_FOLD_ASCII : 0), *two = ac_new(fold ? AC_FOLD_ASCII : 0);
	ac_set_threads(two, 2);
	for (size_t k = 0; k < s->n; k++) {
		ac_add(one, s->bytes + s->start[k], s->len[k]);
		ac_add(two, s->bytes + s->start[k], s->len[k]);
	}
	CHECK(ac_compile(one, AC_PATH_AUTO) == 0 && ac_compile(two, AC_PATH_AUTO) == 0, "%s (fold %d): compile",
	      name, fold);
	CHECK(ac_link_meetings(one) == 0, "%s (fold %d): one thread met %zu times", name, fold,
	      ac_link_meetings(one));
	CHECK(ac_state_count(one) == ac_state_count(two) && ac_memory_bytes(one) == ac_memory_bytes(two),
	      "%s (fold %d): states %zu vs %zu", name, fold, ac_state_count(one), ac_state_count(two));
	char *t = fold ? upper_copy(text, len) : NULL;
	struct tally a = tally_of(one, t ? t : text, len, end), b = tally_of(two, t ? t : text, len, end);
	CHECK(a.n == b.n && a.hash == b.hash, "%s (fold %d): %zu matches on one thread, %zu on two", name, fold,
	      a.n, b.n);
	*meetings = ac_link_meetings(two);
	*states = ac_state_count(one);
	free(t);
	ac_free(one);
	ac_free(two);
	return a;
}

enum { LONG = 200000, SIDE = 640 };

/* One pattern of LONG bytes: random letters, 'a' repeated, "ab" repeated.
 * Every depth holds one state: two threads never meet. */
static void one_long_pattern(void)
{
	static const char *const names[] = { "random letters", "aaaa...", "abab..." };
	for (int shape = 0; shape < 3; shape++) {
		char *p = shape == 0 ? random_letters(LONG, 26) : malloc(LONG);
		for (size_t i = 0; shape > 0 && i < LONG; i++)
			p[i] = shape == 1 || i % 2 == 0 ? 'a' : 'b';
		/* the text: the pattern with 10 more bytes of its period after it
		 * ("0" around it for random letters: one match) */
		char *text = malloc(LONG + 10);
		memcpy(text, p, LONG);
		for (size_t i = LONG; i < LONG + 10; i++)
			text[i] = shape == 0 ? '0' : text[i - 2];
		size_t want = shape == 0 ? 1 : shape == 1 ? 11 : 6;
		struct set s = { 0 };
		set_add(&s, p, LONG);
		for (int fold = 0; fold < 2; fold++) {
			size_t meetings, states;
			struct tally t = compile_both(names[shape], &s, fold, text, LONG + 10, LONG, &meetings, &states);
			CHECK(states == LONG + 1 && meetings == 0, "%s (fold %d): %zu states, threads met %zu times",
			      names[shape], fold, states, meetings);
			CHECK(t.n == want && t.first_start == 0 && t.first_end == LONG && t.first_pattern == 0,
			      "%s (fold %d): %zu matches, the first %zu-%zu", names[shape], fold, t.n, t.first_start,
			      t.first_end);
		}
		set_free(&s);
		free(text);
		free(p);
	}
}

/* All the suffixes of a random string S, and a^k b for k < SIDE: each
 * pattern a suffix of the ones before it, so the state of the whole text
 * outputs SIDE matches down its output chain, longest first. */
static void suffix_chains(void)
{
	char *str = random_letters(SIDE, 26), *akb = malloc(SIDE);
	memset(akb, 'a', SIDE - 1);
	akb[SIDE - 1] = 'b';
	for (int shape = 0; shape < 2; shape++) {
		const char *name = shape == 0 ? "suffixes" : "a^k b";
		struct set s = { 0 };
		for (size_t k = 0; k < SIDE; k++) /* pattern k starts at offset k of the text */
			set_add(&s, (shape == 0 ? str : akb) + k, SIDE - k);
		for (int fold = 0; fold < 2; fold++) {
			size_t meetings, states;
			struct tally t = compile_both(name, &s, fold, shape == 0 ? str : akb, SIDE, SIDE, &meetings,
						      &states);
			CHECK(meetings == 0, "%s (fold %d): threads met %zu times", name, fold, meetings);
			CHECK(t.at_end == SIDE && t.in_order && t.last_pattern == SIDE - 1,
			      "%s (fold %d): %zu matches end with the text (in order: %d)", name, fold, t.at_end,
			      t.in_order);
		}
		set_free(&s);
	}
	free(str);
	free(akb);
}

/* 48 patterns of 4,096 letters, each sharing a prefix of random length
 * with the one before: found one by one, each where it was put. */
static void shared_prefixes(void)
{
	enum { N = 48, LEN = 4096 };
	struct set s = { 0 };
	char *prev = random_letters(LEN, 26), *text = malloc(N * (LEN + 1));
	for (size_t k = 0; k < N; k++) {
		size_t keep = rnd(LEN);
		char *tail = random_letters(LEN - keep, 26);
		memcpy(prev + keep, tail, LEN - keep);
		free(tail);
		set_add(&s, prev, LEN);
		memcpy(text + k * (LEN + 1), prev, LEN);
		text[k * (LEN + 1) + LEN] = '0';
	}
	for (int fold = 0; fold < 2; fold++) {
		size_t meetings, states;
		compile_both("shared prefixes", &s, fold, text, N * (LEN + 1), 0, &meetings, &states);
		CHECK(meetings == 0, "shared prefixes (fold %d): threads met %zu times", fold, meetings);
		ac_automaton *ac = ac_new(fold ? AC_FOLD_ASCII : 0);
		for (size_t k = 0; k < N; k++)
			ac_add(ac, s.bytes + s.start[k], s.len[k]);
		ac_compile(ac, AC_PATH_AUTO);
		size_t bad = 0;
		for (size_t k = 0; k < N; k++) {
			ac_match m;
			size_t at = k * (LEN + 1);
			bad += !ac_find(ac, (const uint8_t *)text, N * (LEN + 1), at, AC_LEFTMOST_LONGEST, &m) ||
			       m.start != at || m.end != at + LEN || m.pattern != k;
		}
		CHECK(bad == 0, "shared prefixes (fold %d): %zu patterns not found where put", fold, bad);
		ac_free(ac);
	}
	free(prev);
	free(text);
	set_free(&s);
}

/* 100,000 words of 6-9 letters from 8 (wide depths: shared by two threads)
 * and one pattern of LONG letters (a chain of narrow depths, linked by one
 * thread without meeting); the text holds words and the long pattern. */
static void wide_and_long(void)
{
	enum { WORDS = 100000, TEXT = 1 << 20 };
	struct set s = { 0 };
	for (size_t k = 0; k < WORDS; k++) {
		size_t n = 6 + rnd(4);
		char *w = random_letters(n, 8);
		set_add(&s, w, n);
		free(w);
	}
	char *p = random_letters(LONG, 8), *text = random_letters(TEXT, 9);
	set_add(&s, p, LONG);
	memcpy(text + TEXT / 2, p, LONG);
	for (int fold = 0; fold < 2; fold++) {
		size_t meetings, states;
		struct tally t = compile_both("wide and long", &s, fold, text, TEXT, TEXT / 2 + LONG, &meetings, &states);
		CHECK(meetings > 0 && meetings <= 2 * states / 4096,
		      "wide and long (fold %d): threads met %zu times for %zu states", fold, meetings, states);
		CHECK(t.n > 10000 && t.at_end >= 1, "wide and long (fold %d): %zu matches, %zu at the long one's end",
		      fold, t.n, t.at_end);
	}
	free(p);
	free(text);
	set_free(&s);
}

int main(void)
{
	one_long_pattern();
	suffix_chains();
	shared_prefixes();
	wide_and_long();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
