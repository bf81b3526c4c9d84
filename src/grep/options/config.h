/* SPDX-License-Identifier: MIT */
/* config.h - the one immutable description of a search, built by opts.c.
 *
 * Owns: every user-visible setting after parsing and validation.  It is
 * read in src/cli and where a module's narrow options are built from it
 * (tests/layout.sh lists the files that read it); the modules take those
 * options: the output's writers print_options.h's (src/cli/narrow.c), the
 * engines match_options (matcher.c), the walk walk_options, the input
 * input_options.  None of them reads argv or environment variables.
 */
#ifndef ACGREP_CONFIG_H
#define ACGREP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum binary_mode { BINARY_BINARY, BINARY_TEXT, BINARY_WITHOUT_MATCH };
enum list_mode { LIST_NONE, LIST_MATCHING /* -l */, LIST_NONMATCHING /* -L */ };
enum io_choice { IO_AUTO, IO_MMAP, IO_READ };
enum engine_choice { ENGINE_AC, ENGINE_PCRE2 };
enum pattern_syntax { SYNTAX_FIXED /* -F */, SYNTAX_BASIC /* -G */, SYNTAX_EXTENDED /* -E */ };
enum dir_action { DIRS_READ, DIRS_SKIP, DIRS_RECURSE }; /* -d ACTION */
/* -D ACTION; without -D, devices, FIFOs and sockets named on the command
 * line are read and those a walk finds skipped, except under -R (walk.h) */
enum dev_action { DEVS_READ_COMMAND_LINE, DEVS_READ, DEVS_SKIP };
enum recurse_mode { RECURSE_NONE, RECURSE_CMDLINE_LINKS /* -r */, RECURSE_ALL_LINKS /* -R */ };

/* One fixed-string pattern; bytes may include NUL, never the pattern separator. */
struct pattern {
	const char *bytes;
	size_t len;
};

struct opts_private; /* defined in opts.c */
struct matcher;      /* matcher.h */

/* The patterns back to back in `storage`, each followed by a NUL, and per
 * pattern the offset just past its bytes: 4 bytes of bookkeeping each, so
 * a list of a million words costs little beyond its text.  Both arrays come
 * from malloc, so that the engine can take them (matcher_ac_new). */
struct pattern_set {
	char *storage;
	uint32_t *end;
	size_t count;
	bool holds_nul; /* some pattern contains a NUL byte */
	/* Per pattern, its index in the list as given, when some were dropped
	 * on the way to an engine (matcher.c); NULL: the same.  From malloc. */
	uint32_t *given;
	/* Per pattern, the anchors an -E/-G expansion gave it (REGEX_BOL,
	 * REGEX_EOL of regex.h), or NULL when none has any.  From malloc. */
	uint8_t *anchors;
};

/* Pattern i (< ps->count) of ps. */
static inline struct pattern pattern_at(const struct pattern_set *ps, size_t i)
{
	size_t start = i ? (size_t)ps->end[i - 1] + 1 : 0;
	return (struct pattern){ .bytes = ps->storage + start, .len = ps->end[i] - start };
}

/* GREP_COLORS capabilities (SGR strings without ESC[ and m). */
struct color_spec {
	const char *selected_match; /* ms */
	const char *context_match;  /* mc */
	const char *selected_line;  /* sl */
	const char *context_line;   /* cx */
	const char *file_name;      /* fn */
	const char *line_number;    /* ln */
	const char *byte_offset;    /* bn */
	const char *separator;      /* se */
	const char *pattern;        /* pt: --show-pattern's field; NULL: as ms */
	bool reverse;               /* rv */
	bool no_erase;              /* ne: omit \33[K */
};

/* --tagged-file: the tags of the pattern list (TAG<TAB>PATTERN lines). */
struct pattern_tags {
	struct pattern_set names; /* the distinct tags, in order of first use */
	uint32_t *of;             /* per pattern: its index in names (an
				     untagged one, of -e or -f, is tagged
				     with its own text); NULL when no tagged
				     list was given, nor a compiled set
				     saved with one */
};

/* --show-pattern=WHAT: what names a match's pattern in the output. */
enum show_pattern {
	SHOW_PATTERN_NONE,
	SHOW_PATTERN_TAG,     /* its tag; an untagged pattern names itself */
	SHOW_PATTERN_TEXT,    /* the pattern as listed */
	SHOW_PATTERN_NUMBER,  /* its 1-based number in the list as given */
};

/* A list of names to search, from --files-from or --files0-from. */
struct file_list {
	const char *path; /* "-": standard input */
	char end;         /* the byte ending each name: '\n', or '\0' for --files0-from */
};

/* --range's END when it was left out: the range goes on to the file's end. */
#define RANGE_TO_END UINT64_MAX

/* The most threads a run uses: --threads past it is refused. */
#define MAX_THREADS 1024

struct config {
	/* At least one pattern (none at all is the empty one with -v flipped,
	 * see opts.c); the one part of the config that is handed on: the
	 * matcher takes it over (matcher_for_config). */
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
