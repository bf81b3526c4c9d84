/* SPDX-License-Identifier: MIT */
/* config.h - the one immutable description of a search, built by opts.c.
 *
 * Owns: every user-visible setting after parsing and validation.  It is
 * read in src/cli alone (tests/layout.sh checks it), where each module's
 * narrow options are built from it (src/cli/narrow.c): the matcher's
 * matcher_spec, the search's search_options, the output's print_options,
 * the run's run_options (with the input's input_options), scale-out's
 * scaleout_options, the walk's walk_options.  None of them reads argv or
 * environment variables.
 */
#ifndef ACGREP_CONFIG_H
#define ACGREP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "option_types.h"

struct opts_private; /* defined in opts.c */
struct matcher;      /* matcher.h */

struct config {
	/* At least one pattern (none at all is the empty one with -v flipped,
	 * see opts.c); the one part of the config that is handed on: the
	 * matcher takes it over (matcher_build). */
	struct pattern_set patterns;
	/* How the patterns are read: -F, or -E/-G, expanded to the finite
	 * set of strings each matches (regex.h) when the matcher is built */
	enum pattern_syntax syntax;
	bool ignore_case;     /* -i */
	bool word_regexp;     /* -w */
	bool line_regexp;     /* -x */
	bool invert;          /* -v */
	bool count;           /* -c */
	enum list_mode list;  /* -l / -L */
	bool only_matching;   /* -o */
	bool quiet;           /* -q */
	bool no_messages;     /* -s */
	long long max_count;  /* -m; -1 when unlimited */
	bool line_number;     /* -n */
	bool byte_offset;     /* -b */
	int with_filename;    /* -H = 1, -h = 0, -1 = decide by number of inputs */
	const char *label;    /* --label, display name of stdin */
	bool null_after_name; /* -Z */
	bool initial_tab;     /* -T */
	bool null_data;       /* -z: eol is '\0' */
	long long before;     /* -B, -1 when unset */
	long long after;      /* -A, -1 when unset */
	const char *group_separator; /* NULL with --no-group-separator */
	bool color;           /* resolved from --color and isatty/NO_COLOR */
	struct color_spec colors;
	bool line_buffered;
	enum binary_mode binary;
	bool count_matches;   /* --count-matches */
	/* Which pattern matched (acgrep extensions; pattern_keys.h). */
	struct pattern_tags tags;          /* --tagged-file */
	enum show_pattern show_pattern;    /* --show-pattern */
	bool show_all_patterns;            /* --show-all-patterns */
	bool count_per_pattern;            /* --count-per-pattern */
	bool include_zero;                 /* --include-zero */
	bool json;                         /* --json */
	bool stats;                        /* --stats */
	bool overlapping;                  /* --overlapping */
	bool all_patterns;                 /* --all-patterns */
	bool count_unseen;                 /* --count-per-pattern with -v: the rows
					      listed are the keys not seen (opts
					      clears invert then) */
	enum io_choice io;
	enum engine_choice engine;
	enum recurse_mode recurse;  /* -d recurse sets RECURSE_CMDLINE_LINKS, as -r */
	enum dir_action directories; /* -d; DIRS_RECURSE whenever recurse != NONE */
	enum dev_action devices;     /* -D */
	const char **includes;    size_t n_includes;    /* --include globs */
	const char **excludes;    size_t n_excludes;    /* --exclude globs */
	const char **exclude_dirs; size_t n_exclude_dirs; /* --exclude-dir globs, as given */
	const char *filter_order; /* 'i'/'e' per --include/--exclude, in command-line order */
	const char **files;       size_t n_files;       /* operands; 0 means stdin or . with -r,
							   unless files_from names a list */
	bool decompress;          /* --decompress: gzip, xz, zstd and bzip2 inputs decoded */
	struct file_list *files_from; size_t n_files_from; /* --files-from / --files0-from
							       lists in command-line order;
							       NULL when none */
	bool utf8_locale;     /* LC_CTYPE is UTF-8 */
	size_t read_chunk;    /* --buffer-size (hidden, tests): read() chunk in bytes */
	int scan_path;        /* --scan-path (hidden, tests): enum ac_scan_path */
	int simd;             /* --simd (hidden, tests): enum simd_level cap */
	unsigned threads;     /* --threads (at most MAX_THREADS); 0 = one per CPU
				 this process may use, MAX_THREADS at most */
	uint64_t segment_size; /* --segment-size (hidden, tests): bytes per segment
				  of a split file; 0 = pool.h's default */
	/* Scaling out (acgrep extensions; range.h, records.h, merge.h). */
	bool has_range;           /* --range given */
	uint64_t range_start;     /* --range=START:END, byte offsets; */
	uint64_t range_end;       /* ... RANGE_TO_END when END was left out */
	bool records;             /* --records: a record stream, not grep's output */
	bool merge;               /* --merge: the operands are record streams */
	unsigned ranges;          /* --ranges=N, an action of the command line
				     alone (opts_range.c); 0 when not given */
	uint64_t pattern_hash;    /* with --records and --merge: the pattern list's
				     fingerprint (opts_range.c), before the matcher
				     takes the list */
	/* Compiled pattern sets (acgrep extensions; matcher_file.h). */
	const char *save_compiled;  /* --save-compiled=FILE: write it, search nothing */
	const char *compiled_path;  /* --compiled=FILE, or NULL */
	/* With --compiled, its matcher, mapped by opts; `patterns` and `tags`
	 * are then views of its pattern list and tags (not from malloc,
	 * valid while the matcher lives).  main takes the matcher and the
	 * list over; the tags stay here until main frees the matcher. */
	struct matcher *compiled;
	struct opts_private *opts_private; /* opts.c's own allocations; opaque, freed by opts_free */
};

/* -q, -l and -L: the first selected line decides an input's report.
 * (Parsing leaves -q over -l and -L, and both over -c.) */
static inline bool config_reports_files(const struct config *cfg)
{
	return cfg->quiet || cfg->list != LIST_NONE;
}

/* Whether the run outputs lines: none of -c, --count-matches, -l, -L,
 * -q.  The one place that rule is written. */
static inline bool config_prints_lines(const struct config *cfg)
{
	return !config_reports_files(cfg) && !cfg->count && !cfg->count_matches;
}

/* The line terminator: NUL with -z, newline otherwise.  The one place that
 * rule is written. */
static inline char config_eol(const struct config *cfg)
{
	return cfg->null_data ? '\0' : '\n';
}

#endif
