/* SPDX-License-Identifier: MIT */
/* walk_internal.h - what walk.c (the traversal) uses of walk_globs.c (the
 * --include/--exclude/--exclude-dir rules).
 */
#ifndef ACGREP_WALK_INTERNAL_H
#define ACGREP_WALK_INTERNAL_H

#include "walk.h"

#include <stdbool.h>
#include <stddef.h>

/* --exclude-dir patterns with trailing slashes removed (grep strips them
 * from the option argument). */
struct dir_globs {
	char **pats;
	size_t n;
};

/* The --exclude-dir patterns of o into *g: 0, or -1 when out of memory
 * (*g then for dir_globs_free all the same). */
int dir_globs_init(struct dir_globs *g, const struct walk_options *o);

void dir_globs_free(struct dir_globs *g);

/* Whether directory `name` is skipped by --exclude-dir: anchored (in the
 * tree) the glob matches the whole name, else also any part after a '/'. */
bool dir_excluded(const struct dir_globs *g, const char *name, bool anchored);

/* The --include/--exclude decision for a non-directory `name`, anchored
 * as for dir_excluded. */
bool files_filtered(const struct walk_options *o, const char *name, bool anchored);

#endif
