/* SPDX-License-Identifier: MIT */
/* narrow.h - the narrow options of the grep layer's modules, each built
 * from the config.
 *
 * Owns: which of the config's settings each module below the CLI reads,
 * and how they combine on the way (the report that ends the output, say).
 * struct config is read here, in the rest of the CLI, and in the files
 * tests/layout.sh lists (the matcher's options are built in matcher.c;
 * the search, the run and what hands them the config take it whole); the
 * output and scale-out folders and the walk take the structs built here.
 */
#ifndef ACGREP_NARROW_H
#define ACGREP_NARROW_H

#include "input/walk.h"
#include "options/config.h"
#include "output/print_options.h"
#include "scaleout/scaleout_options.h"

/* The options of the output's writers (print_options.h). */
struct print_options print_options_of(const struct config *cfg);

/* The walk's: -r/-R, -D, the --include/--exclude/--exclude-dir globs;
 * the caller sets omit_dot_slash. */
struct walk_options walk_options_of(const struct config *cfg);

/* Scale-out's (scaleout_options.h), into *so: a --range or --records
 * job's, a --merge's. */
void scaleout_options_of(const struct config *cfg, struct scaleout_options *so);

#endif
