/* SPDX-License-Identifier: MIT */
/* path_open.h - opening a name longer than the kernel takes.
 *
 * Owns: open(2) of a path of PATH_MAX bytes or more, which open() refuses
 * with ENAMETOOLONG.  grep -r finds such files (gnulib fts walks relative
 * to directory descriptors; so does walk.c), and searches them.
 * Knows nothing of what is opened or why.
 */
#ifndef ACGREP_PATH_OPEN_H
#define ACGREP_PATH_OPEN_H

/* open(path, flags), for a path of any length: one shorter than PATH_MAX
 * is opened at once; a longer one through its directories, each piece of
 * it shorter than PATH_MAX resolved with openat() from the directory the
 * piece before reached.  Returns the descriptor, or -1 with errno set (as
 * open() would for the file, or for a directory on the way; ENAMETOOLONG
 * when one name between slashes is itself too long).  EINTR is left to the
 * caller, as with open(). */
int path_open_long(const char *path, int flags);

#endif
