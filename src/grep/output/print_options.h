/* SPDX-License-Identifier: MIT */
/* print_options.h - what the writers of the output folder need of a run's
 * options.
 *
 * Owns: `struct print_options`, the narrow view of the config that the
 * printer (print.c), the pattern field (pattern_field.c), the JSON writer
 * (json.c) and the report at a run's end (stats_report.c) read.  Built
 * once from the config by the CLI (src/cli/narrow.c); none of those files
 * reads the config itself.
 */
#ifndef ACGREP_PRINT_OPTIONS_H
#define ACGREP_PRINT_OPTIONS_H

#include <stdbool.h>

#include "options/option_types.h"

/* What ends a run's output (stats_report.h). */
enum print_report {
	PRINT_REPORT_NONE,
	PRINT_REPORT_STATS,        /* --stats's lines */
	PRINT_REPORT_JSON_SUMMARY, /* --json's summary record (not under -q) */
};

struct print_options {
	bool line_number;     /* -n */
	bool byte_offset;     /* -b */
	bool null_after_name; /* -Z: NUL after a name, not the separator */
	bool initial_tab;     /* -T */
	bool invert;          /* -v: an -o match takes the context separator,
				 a line selected holds no match */
	char eol;             /* the line terminator (config_eol) */
	const char *group_separator; /* NULL with --no-group-separator */
	bool color;           /* SGR sequences from `colors` */
	struct color_spec colors;
	enum show_pattern show_pattern;   /* --show-pattern */
	bool show_all_patterns;           /* --show-all-patterns */
	bool overlapping;                 /* --overlapping */
	bool json;                        /* --json's records, not grep's lines */
	enum print_report report;
};

#endif
