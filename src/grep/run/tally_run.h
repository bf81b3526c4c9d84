/* SPDX-License-Identifier: MIT */
/* tally_run.h - the main thread's half of the per-key tallies
 * (--count-per-pattern, --all-patterns): each input's rows, taken from its
 * search or its segments (search/tally.h), judged, reported and summed.
 */
#ifndef ACGREP_TALLY_RUN_H
#define ACGREP_TALLY_RUN_H

#include <stdbool.h>

#include "match/pattern_keys.h"
#include "run_options.h"
#include "search/tally.h"

struct printer;
struct search_result;
struct tally_run;

/* The run's bookkeeping for opt over keys; NULL when out of memory. */
struct tally_run *tally_run_new(const struct run_options *opt, const struct pattern_keys *keys);
void tally_run_free(struct tally_run *tr);

/* Whether inputs' lines are printed and so held until the verdict
 * (--all-patterns with output of lines: plain, -o). */
bool tally_holds_output(const struct run_options *opt);

/* An input begins: with tally_holds_output, pr's output buffer holds
 * what is printed from here on until its verdict (outbuf_hold). */
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
