/* SPDX-License-Identifier: MIT */
/* ac_trie.h - the first half of ac_compile: the pattern store, its sorted
 * order and the breadth-first trie.  Shared by ac_build.c, ac_trie.c and
 * ac_sort.c only; not for other modules.
 */
#ifndef ACGREP_AC_TRIE_H
#define ACGREP_AC_TRIE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ac_internal.h"

/* Set in out_len[s] while ac_compile runs when s itself ends a pattern (its
 * output is its own, not inherited down the failure chain). */
#define AC_OWN_BIT 0x80000000u

/* A read-only view of the pattern store: pattern i is
 * bytes[pat_start(st, i) .. end[i]), followed by one separator byte. */
struct store {
	const uint8_t *bytes;
	const uint32_t *end;
};

static inline uint32_t pat_start(const struct store *st, uint32_t i)
{
	return i ? st->end[i - 1] + 1 : 0;
}

/* Frees the patterns collected by ac_add. */
void ac_store_free(ac_automaton *ac);

/* Fills ord[0..*m) with the ids of the *m non-empty patterns of the n_ids
 * in st, in sorted order (by bytes, a prefix before its extensions), each
 * duplicate dropped but its first copy (*m is then their number), and
 * sets *in_order when they were stored so already, without duplicates.
 * tmp holds *m entries; the sort may use `threads` threads (two at most).
 * Returns 0, or -1 when out of memory (ac_sort.c). */
int ac_sort_patterns(const struct store *st, uint32_t n_ids, uint32_t *ord, uint32_t *tmp,
		     uint32_t *m, bool *in_order, unsigned threads);

/* Sorts the collected patterns and builds the trie with breadth-first ids
 * (children of a state consecutive, in byte order), straight into the
 * state tables: n_states, first, in_cls (still raw bytes, not classes),
 * out_len (length of the state's own pattern | AC_OWN_BIT, else 0) and
 * out_id (own pattern id, the first of duplicates, else AC_NONE).  Points
 * ac->trie at them for prefilter_build.  Duplicates and shared prefixes add
 * no states.  Returns 0, or -1 when out of memory or past 2^31 states. */
int ac_trie_build(ac_automaton *ac);

/* Renumbers the trie's states breadth-first again with each state's
 * children in order of rank[byte], highest first, instead of byte order:
 * a sparse state's children are searched in turn, and with the byte-rank
 * model's ranks the child a text byte most likely wants comes first.
 * Depths keep their ranges of ids.  Rewrites first, in_cls (still raw
 * bytes), out_len and out_id in place.  Returns 0, or -1 when out of
 * memory (the tables unchanged). */
int ac_trie_order_siblings(ac_automaton *ac, const uint8_t rank[256]);

#endif
