/* SPDX-License-Identifier: MIT */
/* opts_argv.h - option syntax: the tables, argv as getopt_long is to see
 * it, and the matching of enumerated option arguments.
 *
 * Owns: acgrep's short option string and long option table (GNU grep
 * 3.8's own long options, in grep's order, then acgrep's extensions); a
 * copy of argv in which long-option abbreviations are resolved the way
 * GNU grep 3.8 resolves them, so that acgrep's extra long options never
 * make an abbreviation ambiguous that grep accepts; and gnulib's argmatch
 * with its diagnostics.  What each option means is opts.c's business;
 * this is used only by opts.c.
 */
#ifndef ACGREP_OPTS_ARGV_H
#define ACGREP_OPTS_ARGV_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define PROG "acgrep"

/* Long options without a short equivalent (getopt_long's return values). */
enum {
	OPT_BINARY_FILES = CHAR_MAX + 1, OPT_COLOR, OPT_EXCLUDE, OPT_EXCLUDE_FROM,
	OPT_EXCLUDE_DIR, OPT_INCLUDE, OPT_GROUP_SEP, OPT_NO_GROUP_SEP, OPT_LABEL,
	OPT_LINE_BUFFERED, OPT_NO_IGNORE_CASE, OPT_HELP, OPT_COUNT_MATCHES,
	OPT_MMAP, OPT_NO_MMAP, OPT_ENGINE, OPT_BUFFER_SIZE, OPT_SCAN_PATH,
	OPT_SIMD, OPT_THREADS, OPT_SEGMENT_SIZE, OPT_FILES_FROM, OPT_FILES0_FROM,
	OPT_DECOMPRESS, OPT_GENERATE,
	/* tags and --show-pattern */
	OPT_TAGGED_FILE, OPT_SHOW_PATTERN, OPT_SHOW_ALL_PATTERNS,

	/* per-pattern counts, --overlapping, --all-patterns */
	OPT_COUNT_PER_PATTERN, OPT_INCLUDE_ZERO, OPT_OVERLAPPING, OPT_ALL_PATTERNS,

	/* --json and --stats */
	OPT_JSON, OPT_STATS,

	/* scaling out */
	OPT_RANGE, OPT_RANGES, OPT_RECORDS, OPT_MERGE,
	OPT_COMPILED, OPT_SAVE_COMPILED,
	/* An argument that GNU grep finds ambiguous; see opts_argv_ambiguous. */
	OPT_AMBIGUOUS,
};

extern const char opts_short_options[];
extern const struct option opts_long_options[];

/* argv as handed to getopt_long: argv[0] is "acgrep" (getopt_long names
 * it in its messages) and some "--NAME" elements are replacements. */
struct opts_argv {
	char **argv;            /* argc + 1 elements, NULL-terminated */
	struct opts_rewrite {
		char *text;     /* the replacement, owned */
		char *orig;     /* the caller's element it replaces */
	} *rewrites;
	size_t n_rewrites;
};

/* Fills *av from the caller's argc/argv, which are left untouched.  Up to
 * the "--" that ends the options (or, with POSIXLY_CORRECT set, the first
 * operand), every "--NAME[=VALUE]" that is not exactly one of acgrep's
 * long options but that GNU grep 3.8 would take as an abbreviation of one
 * of its own becomes "--FULL-NAME[=VALUE]"; one that grep would call
 * ambiguous becomes an OPT_AMBIGUOUS marker.  Everything else, acgrep-only
 * abbreviations included, is left to getopt_long.  Arguments of options
 * (as in "-e --cou") are recognised and left alone.  Returns false when
 * out of memory; opts_argv_free must be called either way. */
bool opts_argv_build(struct opts_argv *av, int argc, char **argv);

/* After getopt_long returned OPT_AMBIGUOUS for element `seen` of av->argv,
 * prints getopt_long's own message for the caller's original element, as
 * GNU grep's option table makes it ("option '--co' is ambiguous;
 * possibilities: ...").  Leaves getopt_long's state reset. */
void opts_argv_ambiguous(const struct opts_argv *av, char *seen);

/* Frees what opts_argv_build allocated; *av may then be built again. */
void opts_argv_free(struct opts_argv *av);

/* grep's XARGMATCH for the argument `arg` of `option` ("--directories"):
 * the index of the choice in the NULL-terminated `names` that `arg`
 * equals or else is the only one to abbreviate (with `exact`, only
 * equality counts).  Otherwise -1, after printing gnulib's "invalid
 * argument" or "ambiguous argument" message and the valid choices, quoted
 * for the locale as grep quotes them; the caller adds the usage lines. */
int opts_argmatch(const char *option, const char *arg, const char *const *names, bool exact);

#endif
