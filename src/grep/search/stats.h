/* SPDX-License-Identifier: MIT */
/* stats.h - the statistics of a run (--stats, and --json's end and
 * summary records).
 *
 * Owns: what is counted and how the counts add up: per input (or per
 * segment of a split file) in its search_result, folded like the other
 * segment results and summed over the inputs in order on the main thread,
 * the patterns their matches named with them (so that an input searched
 * but not reported, as a file after -q's match, counts nothing); the
 * clock; and --stats's report.  The counting itself is the
 * search's (search_stats.c): no counter is shared between threads.
 */
#ifndef ACGREP_STATS_H
#define ACGREP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/matcher.h"

/* What the search of one input (or segment) counted.  The counts cover
 * what was searched: a search that stops early (-l, -L, -q, -m, a binary
 * file's first match) counts up to where it stopped. */
struct search_stats {
	uint64_t matches;        /* non-empty matches in selected lines (what -o prints) */
	uint64_t matched_lines;  /* selected lines */
	uint64_t bytes_searched; /* input bytes the search went through */
	uint64_t lines_searched; /* the lines among them, as -n numbers lines */
	uint64_t bytes_printed;  /* the input's lines or records output (not -c
				    counts, -l names, messages or the summary) */
	uint64_t nanos;          /* time the search took */
};

static inline void search_stats_add(struct search_stats *t, const struct search_stats *s)
{
	t->matches += s->matches;
	t->matched_lines += s->matched_lines;
	t->bytes_searched += s->bytes_searched;
	t->lines_searched += s->lines_searched;
	t->bytes_printed += s->bytes_printed;
	t->nanos += s->nanos;
}

/* The distinct patterns an input's matches named (pattern ids, a
 * matcher_hit's: the first listed of those the matcher cannot tell
 * apart), in the order first met; from malloc. */
struct pattern_ids {
	uint32_t *v;
	size_t n, cap;
};

/* Adds id; false when out of memory. */
bool pattern_ids_add(struct pattern_ids *l, uint32_t id);

void pattern_ids_free(struct pattern_ids *l);

/* A set of pattern ids: a bit per pattern. */
struct patterns_seen {
	uint64_t *bits;
	size_t n;                /* pattern ids below n */
};

/* An empty set for ids below n.  Returns 0, or -1 when out of memory. */
int patterns_seen_init(struct patterns_seen *ps, size_t n);

/* Adds id to the set: true when it was not in it yet. */
static inline bool patterns_seen_add(struct patterns_seen *ps, uint32_t id)
{
	if (id >= ps->n)
		return false;
	uint64_t bit = (uint64_t)1 << (id & 63), old = ps->bits[id >> 6];
	ps->bits[id >> 6] = old | bit;
	return !(old & bit);
}

/* Adds every id of l (add: true) or takes them out (false). */
void patterns_seen_update(struct patterns_seen *ps, const struct pattern_ids *l, bool add);

/* How many ids the set holds. */
uint64_t patterns_seen_count(const struct patterns_seen *ps);

void patterns_seen_free(struct patterns_seen *ps);

/* The run's statistics, kept by the main thread. */
struct run_stats {
	struct search_stats total;    /* the inputs' counts added up */
	uint64_t searches;            /* inputs searched */
	uint64_t searches_with_match; /* ... with a selected line */
	uint64_t patterns;            /* patterns in the list as given */
	uint64_t start;               /* stats_now() at the start of the run */
	uint64_t compile_nanos;       /* building the matcher */
	struct patterns_seen seen;    /* the patterns of the inputs added */
	struct patterns_seen main_seen; /* the main thread's searcher's (search.h) */
};

/* A monotonic clock, in nanoseconds. */
uint64_t stats_now(void);

/* Starts the run's statistics: the clock (`start`, taken first thing) and
 * an empty set of `patterns` patterns.  Returns 0, or -1 when out of
 * memory. */
int run_stats_init(struct run_stats *rs, uint64_t start, size_t patterns);

void run_stats_free(struct run_stats *rs);

/* Adds an input's counts (`matched`: a line was selected in it) and its
 * patterns (seen: NULL when they were added already, segment by segment). */
void run_stats_add(struct run_stats *rs, const struct search_stats *s,
		   const struct pattern_ids *seen, bool matched);

/* How a duration reads ("0.000123"): its seconds to six decimals, as
 * ripgrep prints them.  human must hold 32 bytes. */
void stats_seconds(uint64_t nanos, char *human);

#endif
