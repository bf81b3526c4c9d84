/* SPDX-License-Identifier: MIT */
/* scaleout_options.h - what the scale-out folder reads of a run's options.
 *
 * Owns: `struct scaleout_options`, the narrow view of the config that the
 * scale-out folder reads of a --range or --records job and of a --merge,
 * built once from the config by the CLI (src/cli/narrow.c).  The search a
 * job drives, and the context and binary rules a merge follows, take the
 * search's options (search_options.h), the run's searcher's.
 */
#ifndef ACGREP_SCALEOUT_OPTIONS_H
#define ACGREP_SCALEOUT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "records.h"

struct scaleout_options {
	bool records;          /* --records: the job writes a record stream */
	bool has_range;        /* --range given */
	uint64_t range_start;  /* --range=START:END, byte offsets; */
	uint64_t range_end;    /* ... RANGE_TO_END when END was left out */
	char eol;              /* the line terminator (config_eol) */
	bool line_number;      /* -n: a job counts its lines, a merge prints them */
	bool only_matching;    /* -o: a merge prints the matches */
	bool overlapping;      /* --overlapping */
	bool invert;           /* -v */
	long long max_count;   /* -m; -1 when unlimited */
	bool initial_tab;      /* -T */
	int with_filename;     /* -H = 1, -h = 0, -1 = decide by the inputs */
	long long before;      /* -B, -1 when unset */
	long long after;       /* -A, -1 when unset */
	bool prints_lines;     /* config_prints_lines: context lines matter */
	bool quiet;            /* -q: a selected line ends the job */
	bool listed;           /* --files-from or --files0-from names inputs */
	const char *const *operands; /* the operands: a merge's streams */
	size_t n_operands;
	/* A UTF-8 locale's encoding check applies (not -a): a job reads one
	 * run's windows where there is context, and writes them as B records
	 * with -A (records_windows.h) */
	bool encoding_checked;
	/* The options a stream's header states (records.h): what its records
	 * depend on, which a merge must share */
	char header[RECORDS_OPTIONS_MAX];
};

#endif
