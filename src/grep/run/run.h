/* SPDX-License-Identifier: MIT */
/* run.h - one input of a run, from its operand to its report.
 *
 * Owns: what grep decides about an input before and after searching it:
 * skipping devices (-D skip) and directories (-d skip), open errors, the
 * --include/--exclude check of command-line operands, "input file is also
 * the output", and the report afterwards in grep's order (-c counts, -l/-L
 * names, error messages, "binary file matches", -q's early exit), with the
 * run's exit status.  Searching is search.c's; ordering inputs searched by
 * several threads is pool.c's.
 */
#ifndef ACGREP_RUN_H
#define ACGREP_RUN_H

#include <stdbool.h>

#include "input/input.h"
#include "input/walk.h"
#include "output/json.h"
#include "output/outbuf.h"
#include "output/print.h"
#include "run_options.h"
#include "search/search.h"
#include "search/stats.h"

struct scaleout_options; /* scaleout/scaleout_options.h */

struct run {
	const struct run_options *opt; /* what this folder reads of the options */
	/* --range, --records and --merge's options (the scale-out folder
	 * reads them; this one does not) */
	const struct scaleout_options *scaleout;
	struct searcher searcher;
	struct outbuf out;       /* the run's output, to stdout */
	struct printer pr;       /* grep's formats over it */
	struct json_writer *json; /* --json's records over it, or NULL */
	struct walk_options walk;
	struct tally_run *tally; /* per-key reports (tally.h), NULL unless tally_wanted */
	bool matched;
	bool trouble;
	bool stop;      /* the run is over: -q selected a line, or stdout failed */
	/* Stdout was a regular file before any input was opened: no input may
	 * be it (run_open).  False when it was not (closed, a pipe, a
	 * terminal): an input opened while stdout is closed takes descriptor
	 * 1, and is still not the output. */
	bool out_regular;
	uint64_t records; /* --records: the F, O and W records written (range.c) */
	struct run_stats *stats; /* the inputs' statistics are added up here
				    (search_options.stats), or NULL */
};

/* What run_open decided about an input. */
enum open_outcome {
	OPEN_SEARCH,    /* opened: search it */
	OPEN_SKIP,      /* skipped silently (-D skip, -d skip, --exclude) */
	OPEN_FAILED,    /* could not be opened: errno value in *err */
	OPEN_IS_OUTPUT, /* the input is the output file */
};

/* grep's display name of an input: the path, or --label / "(standard
 * input)" for "-". */
const char *run_display_name(const struct run_options *opt, const char *path);

/* Whether lines from this input carry the file name prefix. */
bool run_shows_name(const struct run_options *opt, bool command_line);

/* Opens the input at `path` (dir: walk_file_fn's, the directory to open
 * its last name from, or NULL; command_line: an operand, not found by -r;
 * plain: walk_file_fn's, a regular file read before any fstat), or
 * decides it is not searched.  Prints nothing and touches no run state,
 * so any thread may call it.  With OPEN_SEARCH `in` is open for the
 * caller to search and close. */
enum open_outcome run_open(const struct run *r, const char *path, struct dir_ref *dir,
			   bool command_line, bool plain, struct input *in, int *err);

/* Reports a non-searched input (OPEN_FAILED, OPEN_IS_OUTPUT) as grep
 * does; OPEN_SKIP reports nothing.  A directory read as a file (EISDIR)
 * is reported as grep reports it, as a read error of an empty input: with
 * its -c count or -L name. */
void run_report_open(struct run *r, const char *name, bool command_line, enum open_outcome outcome,
		     int err);

/* After searching `in`, leaves standard input where GNU grep does
 * (input_leave): just after the last selected line when -m ended the
 * search; at its end, read to it where it cannot seek, when the search
 * stopped early for another reason (stdout is /dev/null, a binary input's
 * first match), so that a writer into a pipe is not killed by SIGPIPE;
 * where its last read() left it after -q, -l and -L.  Reading the rest
 * failed: res's read error.  Any thread may call it. */
void run_leave_input(const struct run_options *opt, const struct input *in, struct search_result *res);

/* Reports a searched input: its read error messages, the -c count or
 * -l/-L name (or its per-key rows), then "binary file matches"; records
 * the exit status and adds its statistics (r->stats).  With
 * --all-patterns an input without every key reports as one without a
 * selected line, and its held output is forgotten.  Takes res's tally
 * rows.  Sets r->stop when nothing more is to be searched: -q selected a
 * line, or a write of stdout failed. */
void run_report_result(struct run *r, const char *name, struct search_result *res);

/* "acgrep: NAME: WHAT" on stderr after flushing stdout (silenced by -s;
 * not printed once stdout has failed, which sets r->stop). */
void run_complain(struct run *r, const char *name, const char *what);

/* walk_error_fn for the walk: a directory that could not be read, or a
 * recursive loop (a warning only). */
void run_walk_error(const char *path, int err, void *ctx);

/* Searches and reports the input run_open opened (and closes it), or
 * reports the outcome that kept it from being searched. */
void run_search_opened(struct run *r, const char *path, bool command_line,
		       enum open_outcome outcome, struct input *in, int err);

/* walk_file_fn searching the input at once on this thread and reporting
 * it (the sequential run).  Returns r->stop (non-zero ends the walk). */
int run_search_path(const char *path, struct dir_ref *dir, bool command_line, bool plain, void *ctx);

#endif
