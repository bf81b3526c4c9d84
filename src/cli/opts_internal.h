/* SPDX-License-Identifier: MIT */
/* opts_internal.h - what opts.c shares with the option files that fill
 * in the config's lists (opts_lists.c): the allocations behind the config.
 *
 * Owns: struct opts_private, everything opts_parse allocates that the
 * config's own (const) fields cannot own; released by opts_free.
 */
#ifndef ACGREP_OPTS_INTERNAL_H
#define ACGREP_OPTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "opts.h"
#include "opts_argv.h"

/* Allocations that the config's own fields cannot own (const pointers). */
struct opts_private {
	struct opts_argv args; /* argv as getopt_long saw it; optargs point into it */
	char *legacy_color;  /* copy of GREP_COLOR when it is well formed */
	char *grep_colors;   /* writable copy of GREP_COLORS, cut at ':' and '=' */
	char **files;        /* --exclude-from contents, cut into globs */
	size_t n_files, cap_files;
	char *order;         /* cfg->filter_order: 'i'/'e' per --include/--exclude */
	size_t n_order, cap_order;
	/* capacities of the config's lists */
	size_t cap_includes, cap_excludes, cap_exclude_dirs, cap_files_from;
};

/* The list options, each appending to the config (opts_lists.c).  The
 * bool ones return false when out of memory; add_exclude_from returns -1
 * (done) or 2 (FILE unreadable, reported). */
bool opts_add_filter(struct config *cfg, char which, const char *glob);
bool opts_add_exclude_dir(struct config *cfg, const char *glob);
bool opts_add_files_from(struct config *cfg, const char *path, char end);
int opts_add_exclude_from(struct config *cfg, const char *path);

#endif
