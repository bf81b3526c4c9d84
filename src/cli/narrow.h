/* SPDX-License-Identifier: MIT */
/* narrow.h - the narrow options of the grep layer's modules, each built
 * from the config.
 *
 * Owns: which of the config's settings each module below the CLI reads,
 * and how they combine on the way (the report that ends the output, say).
 * struct config is read here and in the rest of the CLI alone
 * (tests/layout.sh checks it); every module below takes the structs
 * built here.
 */
#ifndef ACGREP_NARROW_H
#define ACGREP_NARROW_H

#include "input/walk.h"
#include "match/matcher.h"
#include "options/config.h"
#include "output/print_options.h"
#include "run/run_options.h"
#include "scaleout/scaleout_options.h"
#include "search/search_options.h"

/* What the run's matcher is built for (matcher.h), of a compiled set
 * too. */
struct matcher_spec matcher_spec_of(const struct config *cfg);

/* matcher_build over `patterns` (normally &cfg->patterns, taken over)
 * for cfg's matcher_spec. */
struct matcher *matcher_for_config(const struct config *cfg, struct pattern_set *patterns,
				   unsigned threads, const char **error);

/* Whether the run names patterns or counts per pattern (--show-pattern,
 * --count-per-pattern, --json, --all-patterns): then it builds its
 * pattern_keys (pattern_keys.h). */
bool pattern_keys_wanted(const struct config *cfg);

/* The options of the output's writers (print_options.h). */
struct print_options print_options_of(const struct config *cfg);

/* The search's (search_options.h), and with it the summary's, the
 * binary and context rules', the tallies' and --merge's. */
struct search_options search_options_of(const struct config *cfg);

/* The run's (run_options.h): of each input, the pool's and the per-key
 * reports'. */
struct run_options run_options_of(const struct config *cfg);

/* The walk's: -r/-R, -D, the --include/--exclude/--exclude-dir globs;
 * the caller sets omit_dot_slash. */
struct walk_options walk_options_of(const struct config *cfg);

/* Scale-out's (scaleout_options.h), into *so: a --range or --records
 * job's, a --merge's. */
void scaleout_options_of(const struct config *cfg, struct scaleout_options *so);

#endif
