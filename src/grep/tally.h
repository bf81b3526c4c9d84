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
 *   rows touched), taken back to a checkpoint when a mapped file shrank,
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

#include "config.h"
#include "matcher.h"
#include "pattern_keys.h"

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

/* Whether cfg's options count per key: --count-per-pattern or
 * --all-patterns. */
static inline bool tally_wanted(const struct config *cfg)
{
	return cfg->count_per_pattern || cfg->all_patterns;
}

/* The keys that are rows of a report (pattern_keys_is_row): what
 * --all-patterns asks an input to hold. */
size_t tally_key_rows(const struct pattern_keys *keys);

/* ---- the searching thread's half (tally.c) ---- */

struct tally;

/* A tally for searches with cfg's options over keys (linked).  NULL when
 * out of memory. */
struct tally *tally_new(const struct config *cfg, const struct pattern_keys *keys);
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

/* The search's checkpoint (search_internal.h): what was counted so far
 * stands.  tally_rewind takes back what was counted since. */
void tally_checkpoint(struct tally *t);
void tally_rewind(struct tally *t);

/* The rows of the input searched since the last take, the tally left
 * empty for the next one. */
struct tally_rows tally_take(struct tally *t);

void tally_rows_free(struct tally_rows *rows);

/* ---- the main thread's half (tally_run.c) ---- */

struct printer;
struct search_result;
struct tally_run;

/* The run's bookkeeping for cfg over keys; NULL when out of memory. */
struct tally_run *tally_run_new(const struct config *cfg, const struct pattern_keys *keys);
void tally_run_free(struct tally_run *tr);

/* Whether inputs' lines are printed and so held until the verdict
 * (--all-patterns with output of lines: plain, -o). */
bool tally_holds_output(const struct config *cfg);

/* An input begins: with tally_holds_output, pr holds what is printed
 * from here on until its verdict (printer_hold). */
void tally_run_begin(struct tally_run *tr, struct printer *pr);

/* Takes the rows of res (an input's, or one segment's of it, in order)
 * into the input being reported; a result dropped by
 * --binary-files=without-match voids the input's rows. */
void tally_run_take(struct tally_run *tr, struct search_result *res);

/* --all-patterns with -l, -L or -q: the input has every key and
 * (`selected`) a selected line, so the rest of it cannot change its
 * report.  False with tr NULL. */
bool tally_run_settled(const struct tally_run *tr, bool selected);

/* The verdict on the input being reported. */
struct tally_verdict {
	bool qualifies;  /* --all-patterns: it has every key (else true) */
	bool matched;    /* --count-per-pattern -H: a row of it counts for the
			    exit status (a key seen; with -v one not seen) */
	bool failed;     /* out of memory: its rows are not all counted */
};

/* Takes res's rows, decides on the input, settles what pr held (kept
 * when it qualifies, else forgotten) and adds the input to the run's
 * totals.  With tr NULL: qualifies, nothing else. */
struct tally_verdict tally_run_verdict(struct tally_run *tr, struct printer *pr,
				       struct search_result *res);

/* After the verdict and the input's messages: its block of rows
 * (--count-per-pattern -H), "NAME:MATCHES<TAB>LINES<TAB>KEY" each; then
 * the input is closed. */
void tally_run_report(struct tally_run *tr, struct printer *pr, const char *name);

/* At the end of the run: the summed rows (--count-per-pattern without
 * -H), "MATCHES<TAB>LINES<TAB>FILES<TAB>KEY" each.  Returns whether a row
 * counts for the exit status. */
bool tally_run_finish(struct tally_run *tr, struct printer *pr);

#endif
