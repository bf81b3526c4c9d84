/* SPDX-License-Identifier: MIT */
/* test_window_shift.c - the HASH path's shift-or filter (window_shift.c,
 * window_shift.h) against its definition.
 *
 * Random sets (shortest pattern 3 to 6 bytes, so 3- and 4-byte windows;
 * letters, digits, punctuation, NUL and bytes from 0x80 up; with and
 * without ASCII folding; 1 to 3,000 patterns) are compiled for the HASH
 * path without vector kernels and their filter built (ac_shift_build):
 * - every pattern's window passes, case-flipped under folding: no match
 *   is ever lost;
 * - the x86 kernel (window_shift_scan) returns, from a spread of starts,
 *   the first block whose windows pass by window_shift_admits and exactly
 *   those windows, or the first block it leaves to other code, over texts
 *   that end at an inaccessible page and start just after another, so any
 *   read past either end faults; in its SSE2 form and, where the CPU has
 *   BMI1, its andn form.
 * And the scan runs it where it should: sets of English-like words at
 * stride 1 take it on SSSE3 and on AVX2 where gathers are slow (never
 * without vector kernels, at AVX-512 or at a stride above 1); through
 * it, forced on every set, the
 * scans find the matches the scalar scan finds and the candidates are
 * the definition's: in a block the kernel reads whole, a window in the
 * HASH table that passes the filter; elsewhere, one in the table.
 * Four threads scanning a fresh set at once, racing to build its filter,
 * all count those candidates.
 * Prints "N passed, N failed".
 */
#include "ac_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "guard_page.h"

#define MAX_PATS 3000
#define MAX_LEN 12
#define RNG_SEED 2718
#include "window_sets.h"

/* A byte from a small alphabet (`narrow`, so that texts hold many
 * prefixes) or a wide one with NUL and high bytes. */
static uint8_t random_byte(bool narrow)
{
	static const char small[] = "abcdeABC .";
	static const char wide[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .-@/";
	if (narrow)
		return (uint8_t)small[rnd(sizeof small - 1)];
	switch (rnd(12)) {
	case 0: return (uint8_t)(0x80 + rnd(128));
	case 1: return 0;
	default: return (uint8_t)wide[rnd(sizeof wide - 1)];
	}
}

static void random_set(struct set *s, size_t n, size_t min_len, bool narrow)
{
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		s->len[i] = i == 0 ? min_len : min_len + rnd(MAX_LEN - (unsigned)min_len + 1);
		for (size_t j = 0; j < s->len[i]; j++)
			s->pat[i][j] = random_byte(narrow);
	}
}

/* A text of len bytes at t: the set's alphabet with patterns planted,
 * case-flipped now and then. */
static void planted_text(uint8_t *t, size_t len, const struct set *s, bool narrow)
{
	for (size_t i = 0; i < len; i++)
		t[i] = random_byte(narrow);
	for (size_t at = rnd(20); at + MAX_LEN < len; at += 1 + rnd(30)) {
		size_t p = rnd((unsigned)s->n);
		for (size_t j = 0; j < s->len[p]; j++)
			t[at + j] = rnd(4) ? s->pat[p][j] : flip_case(s->pat[p][j]);
	}
}

#if SIMD_X86
/* window_shift_scan from pos against the definition, in both of the
 * kernel's forms where this CPU runs both (ws->andn: BMI1). */
static void check_kernel(struct window_shift *ws, const uint8_t *t, size_t len, size_t pos,
			 const char *what)
{
	size_t want = pos;
	uint64_t want_mask = 0;
	for (; want < len && len - want >= 72; want += 64) {
		for (size_t i = 0; i < 64; i++)
			want_mask |= (uint64_t)window_shift_admits(ws, t + want + i) << i;
		if (want_mask)
			break;
	}
	for (int andn = 0; andn <= (int)simd_cpu_bmi1(); andn++) {
		ws->andn = andn;
		uint64_t mask = 1;
		size_t got = window_shift_scan(ws, t, len, pos, &mask);
		CHECK(got == want && mask == want_mask,
		      "%s, %zu bytes from %zu, andn %d: block %zu mask %016llx, want %zu %016llx", what, len, pos,
		      andn, got, (unsigned long long)mask, want, (unsigned long long)want_mask);
	}
}
#endif

static void random_sets(struct guard_page *g)
{
	static const size_t sizes[] = { 1, 3, 8, 9, 40, 300, 3000 };
	char what[128];
	static struct set s;
	int built = 0;
	(void)g; /* the kernel's checks only, on x86 */
	for (int t = 0; t < 140; t++) {
		unsigned flags = t % 2 ? AC_FOLD_ASCII : 0;
		bool narrow = t % 3 == 0;
		random_set(&s, sizes[rnd(sizeof sizes / sizeof *sizes)], 3 + rnd(4), narrow);
		ac_automaton *ac = compile(&s, flags, AC_PATH_HASH, SIMD_SCALAR);
		struct window_shift ws = { .reach = NULL };
		if (!ac || ac->path != AC_PATH_HASH) {
			ac_free(ac);
			continue;
		}
		snprintf(what, sizeof what, "set %d (%zu patterns, fold %u, width %u)", t, s.n, flags,
			 ac->window_width);
		CHECK(ac->shift_cell == NULL, "%s: no filter without vector kernels", what);
		CHECK(ac_shift_build(ac, &ws) && ws.width == ac->window_width, "%s: built", what);
		if (!ws.reach) {
			ac_free(ac);
			continue;
		}
		built++;
		for (size_t i = 0; i < s.n; i++) {
			uint8_t w[MAX_LEN];
			for (size_t j = 0; j < ws.width; j++)
				w[j] = flags && rnd(2) ? flip_case(s.pat[i][j]) : s.pat[i][j];
			CHECK(window_shift_admits(&ws, w), "%s: pattern %zu's window passes", what, i);
		}
#if SIMD_X86
		for (int round = 0; round < 12; round++) {
			size_t len = rnd(700);
			planted_text(g->end - len, len, &s, narrow);
			static const size_t starts[] = { 0, 1, 2, 3, 7, 63, 64, 65, 130 };
			for (size_t k = 0; k < sizeof starts / sizeof *starts; k++)
				check_kernel(&ws, g->end - len, len, starts[k], what);
			memmove(g->start, g->end - len, len);
			check_kernel(&ws, g->start, len, rnd((unsigned)len + 1), what);
		}
#endif
		free(ws.reach);
		ac_free(ac);
	}
	CHECK(built >= 100, "%d sets' filters checked", built);
}

/* Whether the window at t[i..] (zero bytes past len) is in the table. */
static bool in_table(const ac_automaton *ac, const uint8_t *t, size_t len, size_t i)
{
	uint32_t load = 0;
	memcpy(&load, t + i, len - i < 4 ? len - i : 4);
	return ac_window_bit(ac->window_bits, load, ac->window_mask, ac->window_fold);
}

/* The candidates by definition, block by block from 0, through the
 * filter `shift`. */
static size_t naive_candidates(const ac_automaton *ac, const struct window_shift *shift, const uint8_t *t,
			       size_t len)
{
	size_t n = 0;
	for (size_t b = 0; b < len; b += 64)
		for (size_t i = 0; i < 64 && b + i + ac->window_width <= len; i++)
			n += in_table(ac, t, len, b + i) &&
			     (len - b < 72 || !shift || window_shift_admits(shift, t + b + i));
	return n;
}

/* Gives ac the filter even where it would be declined: a cell holding
 * one built now.  Returns it, or NULL when out of memory. */
static const struct window_shift *force_filter(ac_automaton *ac)
{
	ac_shift_free(ac);
	struct window_shift *ws = calloc(1, sizeof *ws);
	ac->shift_cell = calloc(1, sizeof *ac->shift_cell);
	if (!ws || !ac->shift_cell || !ac_shift_build(ac, ws)) {
		free(ws);
		return NULL;
	}
	atomic_store(&ac->shift_cell->filter, ws);
	return ws;
}

static int count_cb(const ac_match *m, void *ctx)
{
	(void)m;
	++*(size_t *)ctx;
	return 0;
}

/* Words of 4-9 letters: the shape the filter is for. */
static void word_set(struct set *s, size_t n)
{
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		s->len[i] = 4 + rnd(6);
		for (size_t j = 0; j < s->len[i]; j++)
			s->pat[i][j] = (uint8_t)('a' + rnd(26));
	}
}

/* Where ac_window_kernel_derive turns the filter on, and scans through it
 * (forced on every HASH set at stride 1) against the scalar scan. */
static void scans(struct guard_page *g)
{
	static struct set s;
	char what[128];
	enum simd_level cpu = simd_cpu_level();
	bool x86 = cpu == SIMD_SSSE3 || cpu == SIMD_AVX2 || cpu == SIMD_AVX512;
	static const enum simd_level caps[] = { SIMD_SCALAR, SIMD_SSSE3, SIMD_AVX2, SIMD_AVX512 };
	for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
		word_set(&s, 100);
		ac_automaton *ac = compile(&s, 0, AC_PATH_AUTO, caps[c]);
		bool want = x86 && ac && ac->path == AC_PATH_HASH && ac->window_stride == 1 &&
			    (ac->simd == SIMD_SSSE3 || (ac->simd == SIMD_AVX2 && simd_cpu_slow_gathers()));
		bool got = ac && ac->shift_cell && ac_window_shift(ac);
		CHECK(ac && ac->path == AC_PATH_HASH && got == want, "100 words, cap %d (runs %d): filter %d",
		      (int)caps[c], ac ? (int)ac->simd : -1, got);
		CHECK(!x86 || caps[c] == SIMD_SCALAR || caps[c] == SIMD_AVX512 ||
			      (caps[c] == SIMD_AVX2 && !simd_cpu_slow_gathers()) || want,
		      "100 words take the filter at cap %d on this CPU", (int)caps[c]);
		ac_free(ac);
	}
	for (size_t i = 0; i < 50; i++) { /* a stride above 1: long patterns */
		s.len[i] = MAX_LEN;
		for (size_t j = 0; j < MAX_LEN; j++)
			s.pat[i][j] = (uint8_t)('a' + rnd(26));
	}
	s.n = 50;
	ac_automaton *ac = compile(&s, 0, AC_PATH_HASH, SIMD_AVX2);
	CHECK(ac && ac->window_stride > 1 && !ac->shift_cell, "stride %u: no filter", ac ? ac->window_stride : 0);
	ac_free(ac);
	if (!x86)
		return;
	int scanned = 0;
	for (int t = 0; t < 60; t++) {
		unsigned flags = t % 2 ? AC_FOLD_ASCII : 0;
		bool narrow = t % 3 == 0;
		if (t % 4 == 3)
			word_set(&s, 20 + rnd(2000));
		else
			random_set(&s, 1 + rnd(400), 3 + rnd(2), narrow);
		ac = compile(&s, flags, AC_PATH_HASH, SIMD_BEST);
		ac_automaton *scalar = compile(&s, flags, AC_PATH_HASH, SIMD_SCALAR);
		if (!ac || !scalar || ac->path != AC_PATH_HASH || ac->window_stride != 1 || ac->window_sieved) {
			ac_free(ac);
			ac_free(scalar);
			continue;
		}
		const struct window_shift *shift = ac->shift_cell ? ac_window_shift(ac) : NULL;
		if (!shift)
			CHECK((shift = force_filter(ac)) != NULL, "set %d: built", t);
		scanned++;
		for (int round = 0; round < 8; round++) {
			size_t len = rnd(2000);
			uint8_t *at = round % 2 ? g->start : g->end - len;
			planted_text(at, len, &s, narrow);
			snprintf(what, sizeof what, "set %d (%zu patterns, fold %u), %zu bytes at the %s", t, s.n,
				 flags, len, round % 2 ? "start" : "end");
			size_t got = 0, want = 0;
			ac_scan_overlapping(ac, at, len, 0, count_cb, &got);
			ac_scan_overlapping(scalar, at, len, 0, count_cb, &want);
			CHECK(got == want, "%s: overlapping: %zu, want %zu", what, got, want);
			CHECK(ac_count_leftmost(ac, at, len, 0) == ac_count_leftmost(scalar, at, len, 0),
			      "%s: leftmost-longest count", what);
			CHECK(ac_candidate_count(ac, at, len) == naive_candidates(ac, shift, at, len),
			      "%s: candidates", what);
		}
		ac_free(ac);
		ac_free(scalar);
	}
	CHECK(scanned >= 40, "%d sets scanned through the filter", scanned);
}

struct race {
	const ac_automaton *ac;
	const uint8_t *text;
	size_t len, count;
};

static void *race_scan(void *arg)
{
	struct race *r = arg;
	r->count = ac_candidate_count(r->ac, r->text, r->len);
	return NULL;
}

/* Threads that scan a fresh set at once race to build its filter
 * (ac_window_shift): one build is kept, and every scan counts the
 * definition's candidates through it (make tsan: no data race). */
static void build_race(void)
{
	static struct set s;
	static uint8_t text[1 << 14];
	enum { THREADS = 4 };
	for (int round = 0; round < 20; round++) {
		word_set(&s, 100);
		ac_automaton *ac = compile(&s, round % 2 ? AC_FOLD_ASCII : 0, AC_PATH_HASH, SIMD_BEST);
		if (!ac || !ac->shift_cell) { /* a CPU whose scan takes no filter */
			ac_free(ac);
			return;
		}
		planted_text(text, sizeof text, &s, false);
		pthread_t th[THREADS];
		struct race r[THREADS];
		int started = 0;
		for (int k = 0; k < THREADS; k++) {
			r[k] = (struct race){ .ac = ac, .text = text, .len = sizeof text };
			started += pthread_create(&th[k], NULL, race_scan, &r[k]) == 0;
		}
		for (int k = 0; k < started; k++)
			pthread_join(th[k], NULL);
		size_t want = naive_candidates(ac, ac_window_shift(ac), text, sizeof text);
		for (int k = 0; k < started; k++)
			CHECK(r[k].count == want, "round %d, thread %d: %zu candidates, want %zu", round, k,
			      r[k].count, want);
		ac_free(ac);
	}
}

int main(void)
{
	struct guard_page g;
	if (!guard_page_map(&g)) {
		fprintf(stderr, "test_window_shift: cannot map guard pages\n");
		return 2;
	}
	random_sets(&g);
	scans(&g);
	build_race();
	guard_page_free(&g);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
