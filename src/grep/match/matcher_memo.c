/* SPDX-License-Identifier: MIT */
/* matcher_memo.c - a thread's memo for counting matches (struct
 * matcher_memo): made at its first use where the engine counts a large
 * set by runs (ac_count_runs_kept), kept from line to line and from input
 * to input, freed by its thread.  --count-matches counts a selected line
 * at a time; with the memo a run of the text seen before (most of a
 * text's words) costs a hash and a compare instead of steps through a
 * large automaton.
 */
#include "matcher_ac_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* The engine's kept run memo, for the automaton `ac` (the first the
 * thread counted with: another is counted without it). */
struct matcher_memo {
	const ac_automaton *ac;
	struct ac_run_memo runs;
};

void matcher_memo_restart(struct matcher_memo *memo)
{
	if (memo)
		memo->runs = (struct ac_run_memo){ .table = memo->runs.table,
						   .table_bytes = memo->runs.table_bytes };
}

void matcher_memo_free(struct matcher_memo *memo)
{
	if (memo)
		free(memo->runs.table);
	free(memo);
}

/* The memo for ac in *slot, made at the first call where counting by runs
 * applies (ac_run_memo_bytes: a large set); NULL where it does not, where
 * *slot is another automaton's, or where even the memo's header cannot be
 * allocated.  A table that cannot be allocated leaves the memo without one:
 * counted as without a memo, and not asked for again. */
static struct matcher_memo *memo_for(const ac_automaton *ac, struct matcher_memo **slot)
{
	if (*slot)
		return (*slot)->ac == ac ? *slot : NULL;
	size_t bytes = ac_run_memo_bytes(ac, SIZE_MAX);
	if (!bytes)
		return NULL;
	int was = errno; /* a memo it cannot have is no error of the search's */
	struct matcher_memo *memo = malloc(sizeof *memo);
	void *table = memo ? calloc(1, bytes) : NULL;
	errno = was;
	if (!memo)
		return NULL;
	*memo = (struct matcher_memo){
		.ac = ac, .runs = { .table = table, .table_bytes = table ? bytes : 0 },
	};
	return *slot = memo;
}

size_t matcher_memo_count(const ac_automaton *ac, const uint8_t *buf, size_t len,
			  struct matcher_memo **slot)
{
	struct matcher_memo *memo = memo_for(ac, slot);
	return memo ? ac_count_runs_kept(ac, buf, len, false, &memo->runs)
		    : ac_count_leftmost(ac, buf, len, 0);
}
