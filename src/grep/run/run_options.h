/* SPDX-License-Identifier: MIT */
/* run_options.h - what the run folder reads of a run's options.
 *
 * Owns: `struct run_options`, the narrow view of the config that the run
 * of each input (run.c), the pool of threads (pool.c, pool_commit.c) and
 * the per-key reports (tally_run.c) read, and the scale-out folder with
 * them: how inputs are opened, which are skipped, how each is named and
 * reported, when the run stops.  Built once from the config by the CLI
 * (src/cli/narrow.c).
 */
#ifndef ACGREP_RUN_OPTIONS_H
#define ACGREP_RUN_OPTIONS_H

#include <stdbool.h>

#include "input/input.h"
#include "options/option_types.h"

struct run_options {
	/* How an input is opened and read (io, chunk, eol, -B lines,
	 * --decompress); the walk's any_length is set per input */
	struct input_options input;
	bool no_messages;        /* -s */
	const char *label;       /* --label: the display name of standard input, or NULL */
	int with_filename;       /* -H = 1, -h = 0, -1 = decide by the inputs */
	bool several_inputs;     /* more than one operand, or --files-from's lists */
	enum dev_action devices;     /* -D */
	enum dir_action directories; /* -d */
	enum list_mode list;     /* -l / -L */
	bool count;              /* -c */
	bool count_matches;      /* --count-matches */
	bool quiet;              /* -q: the first selected line ends the run */
	bool reports_files;      /* -q, -l or -L: the first selected line decides */
	bool prints_lines;       /* none of -c, --count-matches, -l, -L, -q */
	long long max_count;     /* -m; -1 when unlimited */
	long long before;        /* -B, -1 when unset */
	long long after;         /* -A, -1 when unset */
	bool line_number;        /* -n */
	bool json;               /* --json */
	bool line_buffered;      /* --line-buffered */
	enum engine_choice engine; /* --engine: worker threads search with AC only */
	bool count_per_pattern;  /* --count-per-pattern */
	bool all_patterns;       /* --all-patterns */
	bool include_zero;       /* --include-zero */
	bool count_unseen;       /* --count-per-pattern with -v: the keys not seen */
};

#endif
