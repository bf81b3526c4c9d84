/* SPDX-License-Identifier: MIT */
/* dir_ref.h - a directory's descriptor shared by the walk and the searches
 * of the files it found there.
 *
 * Owns: when such a descriptor is closed: at the last drop, by the walk
 * (done with the directory) or by the search of a file found there.  A file
 * is opened relative to its directory (openat), not by its whole name: the
 * kernel then looks up one name instead of every directory on the way.
 * Knows nothing of walking, opening files or threads beyond the count.
 */
#ifndef ACGREP_DIR_REF_H
#define ACGREP_DIR_REF_H

/* A reference-counted open directory. */
struct dir_ref;

/* Takes over descriptor fd (a directory) with one reference.  Returns NULL
 * when out of memory, fd then still the caller's. */
struct dir_ref *dir_ref_new(int fd);

/* The descriptor, open while a reference is held. */
int dir_ref_fd(const struct dir_ref *d);

/* Another reference to d, from any thread. */
void dir_ref_hold(struct dir_ref *d);

/* Gives back a reference, from any thread; the last closes the descriptor
 * and frees d.  NULL: nothing. */
void dir_ref_drop(struct dir_ref *d);

/* How many dir_refs of the process are open now (the walk bounds them). */
unsigned dir_ref_open_count(void);

/* The name to open relative to a dir_ref: what follows the last '/' of
 * `path`, a name the walk found in that directory. */
const char *dir_ref_entry_name(const char *path);

#endif
