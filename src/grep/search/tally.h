/* SPDX-License-Identifier: MIT */
/* tally.h - per-pattern counts and the keys an input holds: what
 * --count-per-pattern and --all-patterns know of a search.
 *
 * Owns: what a key (pattern_keys.h: a tag, or a pattern) is credited
 * with in a line, and the bookkeeping from a searching thread to the
 * report.  Two halves:
 *
 * - struct tally (tally.c), one per searching thread, reused from input
 *   to input: the counts of the input (or segment) being searched, per
 *   key in a sparse table (a dense key -> row index, reset through the
 *   rows touched), saved and restored (a mapped file that shrank),
 *   and handed out as rows in the input's search_result.
 * - struct tally_run (tally_run.c), on the main thread, in input order:
 *   the rows of an input's segments folded into one input, the verdict
 *   on it (--all-patterns: has it every key?), the run's totals, and the
 *   rows printed, per input or summed at the end.
 *
 * A key occurs in a line when the matcher reports a match of it there:
 * the matches -o prints (leftmost-longest, not overlapping), or with
 * --overlapping every occurrence (matcher_each_overlapping).  MATCHES
 * counts the non-empty ones; the empty pattern, which -o never prints,
 * occurs in a line without a match counted.  --all-patterns takes every
 * occurrence whatever --overlapping says: a key found inside a longer
 * one is in the input too.  Knows nothing of files, output formats
 * beyond its rows, or threads.
 */
#ifndef ACGREP_TALLY_H
#define ACGREP_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "search_options.h"

/* One key's counts in an input or a segment. */
struct tally_row {
	uint32_t key;
	uint64_t matches;   /* its non-empty matches */
	uint64_t lines;     /* the lines it occurred in */
	uint64_t last_line; /* the search's own: the line it last occurred in */
};

/* An input's or a segment's rows, in no particular order, each key once;
 * from malloc (a search_result owns them until the run takes them).
 * A key that occurred only as --all-patterns looks (every occurrence)
 * has a row with no lines. */
struct tally_rows {
	struct tally_row *row;
	size_t n;
};

/* Whether opt counts per key: --count-per-pattern or
 * --all-patterns. */
static inline bool tally_wanted(const struct search_options *opt)
{
	return opt->count_per_pattern || opt->all_patterns;
}

/* The keys that are rows of a report (pattern_keys_is_row): what
 * --all-patterns asks an input to hold. */
size_t tally_key_rows(const struct pattern_keys *keys);

/* ---- the searching thread's half (tally.c) ---- */

struct tally;

/* A tally for searches with opt's options over keys (linked).  NULL when
 * out of memory. */
struct tally *tally_new(const struct search_options *opt, const struct pattern_keys *keys);
void tally_free(struct tally *t);

/* Credits the keys of the line buf[ls, le) (its terminator included, if
 * it has one; bytes before ls are -w context), a line that matches: the
 * selected ones, and under -v with --all-patterns the others.  zap_nul:
 * a NUL ends lines too (binary input).  Out of memory, the counts stop
 * and matcher_note_failure tells the search. */
void tally_line(struct tally *t, const struct matcher *m, const char *buf, size_t ls, size_t le,
		char eol, bool zap_nul);

/* Whether the search must go on past a line that would decide it (-l,
 * -L, -q, a binary match): it counts (--count-per-pattern), or keys are
 * still to be seen (--all-patterns). */
bool tally_pending(const struct tally *t);

/* What was counted so far stands: tally_restore takes back what was
 * counted since. */
void tally_save(struct tally *t);
void tally_restore(struct tally *t);

/* The rows of the input searched since the last take, the tally left
 * empty for the next one. */
struct tally_rows tally_take(struct tally *t);

void tally_rows_free(struct tally_rows *rows);

#endif
