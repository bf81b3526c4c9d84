/* SPDX-License-Identifier: MIT */
/* search_options.h - what the search folder reads of a run's options.
 *
 * Owns: `struct search_options`, the narrow view of the config that the
 * search of an input (search.c, search_lines.c, search_stats.c), its
 * summary, tallies, binary rule and context rule read, and --merge with
 * them.  Built once from the config by the CLI (src/cli/narrow.c); a
 * --records job's search takes a copy with -o and the encoding check off
 * (range.c).
 */
#ifndef ACGREP_SEARCH_OPTIONS_H
#define ACGREP_SEARCH_OPTIONS_H

#include <stdbool.h>

#include "options/option_types.h"

struct search_options {
	char eol;                /* the line terminator: NUL with -z, newline otherwise */
	bool invert;             /* -v */
	bool only_matching;      /* -o: the matches are output, not the lines */
	bool line_regexp;        /* -x: a line kept in pieces holds no match */
	bool line_number;        /* -n */
	bool initial_tab;        /* -T: numbers padded (search_number_width) */
	bool overlapping;        /* --overlapping */
	bool count;              /* -c */
	bool count_matches;      /* --count-matches */
	bool count_per_pattern;  /* --count-per-pattern */
	bool all_patterns;       /* --all-patterns */
	bool reports_files;      /* -q, -l or -L: the first selected line decides */
	bool prints_lines;       /* none of -c, --count-matches, -l, -L, -q */
	bool stats;              /* --stats or --json: statistics are kept (stats.h) */
	bool json;               /* --json: lines with encoding errors are output */
	bool utf8_locale;        /* LC_CTYPE is UTF-8: encodings are checked (not -a) */
	enum binary_mode binary; /* --binary-files */
	long long max_count;     /* -m; -1 when unlimited */
	long long before;        /* -B, -1 when unset */
	long long after;         /* -A, -1 when unset */
	const char *group_separator; /* NULL with --no-group-separator */
};

#endif
