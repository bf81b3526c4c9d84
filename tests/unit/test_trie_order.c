/* SPDX-License-Identifier: MIT */
/* test_trie_order.c - the order of a state's children (ac_trie.c).
 *
 * Owns: a set large enough to have sparse states (60,000 random words of
 * letters and digits, with and without ASCII folding) numbers each state's
 * children by the byte-rank model, the most common byte first, still
 * breadth-first (every child one depth below its parent, each depth one
 * range of ids) and with each pattern reachable along its bytes to a state
 * that reports it; a set whose states all have dense rows keeps byte order.
 * The scans over such sets are test_ac_sparse's and test_ac's.
 */
#include "ac_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N_WORDS 60000
#define MAX_LEN 10

static unsigned rng = 7;
static unsigned rnd(unsigned n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 16) % n;
}

/* The byte of each class: the highest byte in it (the lower-case letter
 * where folding puts both cases in one; the trie holds that one). */
static void class_bytes(const ac_automaton *ac, uint8_t byte_of[256])
{
	for (int b = 0; b < 256; b++)
		byte_of[ac->cls[b]] = (uint8_t)b;
}

/* The depth of each state, from depth_start. */
static uint32_t depth_of(const ac_automaton *ac, uint32_t s)
{
	uint32_t d = 0;
	while (d + 1 <= ac->max_len && ac->depth_start[d + 1] <= s)
		d++;
	return d;
}

/* Checks every state's children: consecutive ids one depth down, in rank
 * order (by_rank) or byte order. */
static void check_children(const ac_automaton *ac, bool by_rank, const char *what)
{
	const uint8_t *rank = ac_rank_table;
	uint8_t byte_of[256];
	class_bytes(ac, byte_of);
	size_t wrong_order = 0, wrong_depth = 0;
	for (uint32_t s = 0; s < ac->n_states; s++) {
		uint32_t d = depth_of(ac, s);
		for (uint32_t k = ac->first[s]; k < ac->first[s + 1]; k++) {
			wrong_depth += depth_of(ac, k) != d + 1;
			if (k == ac->first[s])
				continue;
			uint8_t prev = byte_of[ac->in_cls[k - 1]], cur = byte_of[ac->in_cls[k]];
			wrong_order += by_rank ? rank[prev] <= rank[cur] : prev >= cur;
		}
	}
	CHECK(wrong_order == 0, "%s: %zu children out of %s order", what, wrong_order,
	      by_rank ? "rank" : "byte");
	CHECK(wrong_depth == 0, "%s: %zu children not one depth below their parent", what, wrong_depth);
}

/* Follows pattern p from the root by its bytes' classes. */
static uint32_t walk(const ac_automaton *ac, const char *p)
{
	uint32_t s = AC_ROOT;
	for (; *p; p++) {
		uint32_t c = ac->cls[(uint8_t)*p], k = ac->first[s];
		while (k < ac->first[s + 1] && ac->in_cls[k] != c)
			k++;
		if (k == ac->first[s + 1])
			return AC_NONE;
		s = k;
	}
	return s;
}

static void large_set(unsigned flags, const char *what)
{
	static char words[N_WORDS][MAX_LEN + 1];
	static const char alphabet[] = "etaoinshrdlucmfwypvbgkjqxz0123456789ETAOINSHRDLU";
	ac_automaton *ac = ac_new(flags);
	for (size_t i = 0; i < N_WORDS; i++) {
		size_t len = 1 + rnd(MAX_LEN);
		for (size_t j = 0; j < len; j++)
			words[i][j] = alphabet[rnd(sizeof alphabet - 1)];
		words[i][len] = '\0';
		ac_add(ac, words[i], len);
	}
	CHECK(ac_compile(ac, AC_PATH_AUTO) == 0, "%s: compile", what);
	CHECK(ac->n_dense < ac->n_states, "%s: %u states, all dense", what, ac->n_states);
	check_children(ac, true, what);
	size_t lost = 0;
	for (size_t i = 0; i < N_WORDS; i++) {
		char folded[MAX_LEN + 1];
		for (size_t j = 0; j <= strlen(words[i]); j++)
			folded[j] = (flags & AC_FOLD_ASCII) && words[i][j] >= 'A' && words[i][j] <= 'Z'
					    ? (char)(words[i][j] + 32) : words[i][j];
		uint32_t s = walk(ac, folded);
		lost += s == AC_NONE || ac->out_len[s] != strlen(words[i]);
	}
	CHECK(lost == 0, "%s: %zu patterns not found along their bytes", what, lost);
	ac_free(ac);
}

static void small_set(void)
{
	static const char *const pats[] = { "zebra", "apple", "eel", "tea", "ten", "az", "ae" };
	ac_automaton *ac = ac_new(0);
	for (size_t i = 0; i < sizeof pats / sizeof *pats; i++)
		ac_add(ac, pats[i], strlen(pats[i]));
	CHECK(ac_compile(ac, AC_PATH_AUTO) == 0, "small: compile");
	CHECK(ac->n_dense == ac->n_states, "small: %u of %u states dense", ac->n_dense, ac->n_states);
	check_children(ac, false, "small");
	ac_free(ac);
}

int main(void)
{
	large_set(0, "large");
	large_set(AC_FOLD_ASCII, "large, folded");
	small_set();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
