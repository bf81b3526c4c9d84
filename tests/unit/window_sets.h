/* SPDX-License-Identifier: MIT */
/* window_sets.h - what the HASH path's window tests (test_window_sieve.c,
 * test_window_shift.c) share: a xorshift32 generator, a pattern set of at
 * most MAX_PATS patterns of at most MAX_LEN bytes (both defined by the
 * includer, as is RNG_SEED), compiling it, and a letter's other case.
 */
#ifndef ACGREP_TEST_WINDOW_SETS_H
#define ACGREP_TEST_WINDOW_SETS_H

#include "ac_internal.h"

static uint32_t rng_state = RNG_SEED;
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state % n;
}

/* n patterns, pattern i being pat[i][0..len[i]) */
struct set {
	size_t n, len[MAX_PATS];
	uint8_t pat[MAX_PATS][MAX_LEN];
};

/* s compiled for `path` under the kernel cap `cap`, or NULL. */
static ac_automaton *compile(const struct set *s, unsigned flags, enum ac_scan_path path, enum simd_level cap)
{
	ac_automaton *ac = ac_new(flags);
	if (!ac)
		return NULL;
	ac_limit_simd(ac, cap);
	for (size_t i = 0; i < s->n; i++)
		ac_add(ac, s->pat[i], s->len[i]);
	if (ac_compile(ac, path) != 0) {
		ac_free(ac);
		return NULL;
	}
	return ac;
}

static uint8_t flip_case(uint8_t b)
{
	return (b | 0x20) >= 'a' && (b | 0x20) <= 'z' ? b ^ 0x20 : b;
}

#endif
