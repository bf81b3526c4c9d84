/* SPDX-License-Identifier: MIT */
/* opts_compiled.h - the options of compiled pattern sets, --compiled and
 * --save-compiled (issue 16's acgrep extensions).
 *
 * Owns: their arguments, how they combine with the pattern options and
 * the operands, their diagnostics, mapping the set a search takes its
 * matcher from (matcher_file.h), and --save-compiled's run.  Used by
 * opts.c and main.c.
 */
#ifndef ACGREP_OPTS_COMPILED_H
#define ACGREP_OPTS_COMPILED_H

#include <stdbool.h>

#include "match/matcher.h"
#include "options/config.h"

/* opts_compiled_option's answer for an option that is not one of these. */
#define OPTS_NOT_COMPILED (-2)

/* Applies option c (getopt_long's value) with argument arg.  Returns -1
 * when applied, or OPTS_NOT_COMPILED. */
int opts_compiled_option(struct config *cfg, int c, const char *arg);

/* After every option, the pattern list (have_keys: some -e, -f or
 * --tagged-file was given; syntax_given: 'E', 'F' or 'G' when one of
 * those options was, else 0) and the locale: checks how these options
 * combine with the rest, and with --compiled maps the set: cfg->compiled
 * is its matcher, cfg->patterns a view of its list, cfg->tags of its tags
 * (cfg->tags.of NULL when it was saved without) and cfg->syntax its
 * syntax (an -E, -F or -G given must be the set's).  Returns -1, or an
 * exit status after printing why not ("acgrep: FILE: compiled with -i;
 * this search is without it", 2). */
int opts_compiled_finish(struct config *cfg, bool have_keys, char syntax_given);

/* --save-compiled's run: compiles cfg's patterns (on up to `threads`
 * threads) and writes the set, with cfg->tags when there are any (opts
 * finishes them first).  Returns the exit status: 0, or 2 after printing
 * why not. */
int opts_compiled_save(const struct config *cfg, unsigned threads);

/* Hands the loaded matcher over to the caller (NULL without --compiled);
 * cfg->patterns, its view, is left empty; cfg->tags stays a view into it,
 * valid until the caller frees the matcher. */
struct matcher *opts_compiled_take(struct config *cfg);

/* For opts_free: frees a matcher not taken and forgets the views in
 * cfg->patterns and cfg->tags (which opts_free must then not free). */
void opts_compiled_free(struct config *cfg);

#endif
