/* SPDX-License-Identifier: MIT */
/* opts_range.h - the options of scaling out (issue 16): --range,
 * --records, --merge and the --ranges helper.
 *
 * Owns: their arguments, the rules on how they combine with each other and
 * with grep's options, their diagnostics, the pattern list's fingerprint
 * that record streams carry, and --ranges, which prints byte ranges and
 * searches nothing.  Used only by opts.c.
 */
#ifndef ACGREP_OPTS_RANGE_H
#define ACGREP_OPTS_RANGE_H

#include "options/config.h"

/* opts_range_option's answer for an option that is not one of these. */
#define OPTS_NOT_RANGE (-2)

/* Applies option c (getopt_long's value) with argument arg.  Returns -1
 * when applied, 2 after printing why arg is invalid, or OPTS_NOT_RANGE. */
int opts_range_option(struct config *cfg, int c, const char *arg);

/* --ranges=N, after the options: prints N ranges START:END per FILE (the
 * operands, n_files of them) on stdout, each line led by the file name and
 * a tab when names are shown (-H, or more than one FILE).  Returns the
 * exit status: 0, or 2 after naming on stderr a FILE that is not a
 * readable regular file (the others are still printed) or a write error;
 * -1 when --ranges was not given. */
int opts_range_action(const struct config *cfg, char **files, int n_files);

/* After every option, the patterns and the locale: checks how these
 * options combine and computes cfg->pattern_hash.  Returns -1, or 2 after
 * printing why not. */
int opts_range_finish(struct config *cfg);

#endif
