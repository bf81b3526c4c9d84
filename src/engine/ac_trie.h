/* ac_trie.h - the first half of ac_compile: the pattern store and the
 * breadth-first trie, plus the table allocator the automaton's arrays use.
 * Shared by ac_build.c and ac_trie.c only; not for other modules.
 */
#ifndef ACGREP_AC_TRIE_H
#define ACGREP_AC_TRIE_H

#include <stddef.h>
#include <stdint.h>

#include "ac_internal.h"

/* Set in out_len[s] while ac_compile runs when s itself ends a pattern (its
 * output is its own, not inherited down the failure chain). */
#define AC_OWN_BIT 0x80000000u

/* Returns `bytes` of zeroed memory (transparent huge pages asked for when
 * large, and faulted in at once: for tables that will be filled), or NULL.
 * Free with ac_table_free. */
void *ac_table_alloc(size_t bytes);

/* ac_table_alloc for an upper bound: pages become resident as they are
 * first written. */
void *ac_table_reserve(size_t bytes);

/* Returns table q (NULL: none yet) grown to hold `bytes`, its contents kept
 * and the rest zeroed; NULL when out of memory (q is then untouched).
 * Large tables grow in place where they can, else they are copied into a
 * new table (2 MiB-aligned): grown by doubling, the copies add up to less
 * than the final size. */
void *ac_table_grow(void *q, size_t bytes);

/* Gives back what table q holds past its first `bytes` (large tables
 * only; the table keeps working either way). */
void ac_table_shrink(void *q, size_t bytes);

/* Frees an ac_table_alloc table; NULL is fine. */
void ac_table_free(void *q);

/* Frees the patterns collected by ac_add. */
void ac_store_free(ac_automaton *ac);

/* Sorts the collected patterns and builds the trie with breadth-first ids
 * (children of a state consecutive, in byte order), straight into the
 * state tables: n_states, first, in_cls (still raw bytes, not classes),
 * out_len (length of the state's own pattern | AC_OWN_BIT, else 0) and
 * out_id (own pattern id, the first of duplicates, else AC_NONE).  Points
 * ac->trie at them for prefilter_build.  Duplicates and shared prefixes add
 * no states.  Returns 0, or -1 when out of memory or past 2^31 states. */
int ac_trie_build(ac_automaton *ac);

#endif
