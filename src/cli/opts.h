/* SPDX-License-Identifier: MIT */
/* opts.h - the command line: options, validation, --help, --version.
 *
 * Owns: turning argv and the environment (GREP_COLORS, GREP_COLOR, NO_COLOR,
 * TERM, POSIXLY_CORRECT, the locale) into a const struct config.  Knows
 * nothing of searching.  (Split over opts.c, opts_argv.c, opts_color.c,
 * opts_patterns.c, opts_tags.c, opts_report.c.)
 */
#ifndef ACGREP_OPTS_H
#define ACGREP_OPTS_H

#include "options/config.h"

/* Parses argv into *cfg (zeroed by the caller); argv itself is neither
 * modified nor permuted.  Reads -f and --tagged-file pattern files and
 * --exclude-from glob files.  Returns -1 when the search should run, or
 * an exit status to exit with at once, any message already on stderr as
 * GNU grep 3.8 prints it:
 *   0  after --help or --version (on stdout), or --ranges (its ranges
 *      printed; 2 when a FILE could not be cut, see opts_range.h);
 *   1  when grep exits 1 without reading any input: nothing can be
 *      selected (-m 0, -f /dev/null without -v, only empty patterns with
 *      -v and without -x/-w; never with -L), or an invalid -d ACTION
 *      (grep's usage(EXIT_FAILURE));
 *   2  after a usage error, an invalid option argument, an unreadable
 *      -f / --tagged-file / --exclude-from file or a --tagged-file line
 *      that breaks its format.
 * When it returns 0, 1 or 2, everything is already freed (opts_free is
 * then harmless).  When it returns -1, *cfg is final, every rule between
 * options applied (no pattern at all is the empty pattern with -v
 * flipped, -w and -x dropped), and the strings in it stay valid until
 * opts_free(cfg). */
int opts_parse(int argc, char **argv, struct config *cfg);

/* Prints GNU grep's words for a failed allocation, "acgrep: memory
 * exhausted", on stderr.  Returns 2, the exit status that goes with it. */
int opts_oom(void);

/* Prints grep's usage lines ("Usage: ...", "Try ... --help") on stderr,
 * as after an invalid option argument.  Returns 2. */
int opts_usage_error(void);

/* Frees what opts_parse allocated in *cfg; calling it twice is harmless. */
void opts_free(struct config *cfg);

#endif
