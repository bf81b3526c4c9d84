/* SPDX-License-Identifier: MIT */
/* walk.h - expanding command-line operands into the files to search.
 *
 * Owns: -r/-R directory traversal (-r follows symlinks only when named on
 * the command line, -R follows all), --include/--exclude/--exclude-dir glob
 * filtering with GNU grep's rules.  Knows nothing of matching or output;
 * errors go to the caller's callback, never to stderr.
 *
 * GNU grep 3.8 behaviour reproduced (checked against /usr/bin/grep):
 *  - Order: a directory's entries are read in full (in batches of 100000),
 *    visited in readdir order, depth first, descending into a subdirectory
 *    where it is met.  A batch of more than 10000 entries is first sorted by
 *    inode number (gnulib fts), with -r except on tmpfs, NFS and CIFS.
 *  - Names: "dir/entry"; trailing slashes of the operand collapse ("d/",
 *    "d//" give "d/x"; "/" gives "/x", "//" gives "//x"); "./d" stays
 *    "./d/x".  With omit_dot_slash (grep -r with no operand) "./x" is "x".
 *  - Inside the tree -r skips symlinks (to files and dirs) silently; -R
 *    follows them and hands dangling links to on_file (grep's open reports
 *    ENOENT).  Devices, fifos and sockets in the tree (-R: also those a
 *    link leads to) are skipped silently with -D skip, and without -D
 *    under -r; they go to on_file with -D read, and without -D under -R
 *    (grep 3.8 opens them: a fifo blocks, a socket reports ENXIO).
 *  - Depth: -r opens each directory relative to its parent's descriptor,
 *    so a tree deeper than PATH_MAX is walked, and its files, whose names
 *    are that long, relative to their directory's (on_file's `dir`), or
 *    with path_open_long (walk_any_length) where on_file has no `dir`.  It
 *    keeps at most WALK_HELD_DIRS descriptors of the directories above; a
 *    directory whose descriptor was let go is opened again as ".." of its
 *    child and must be the same directory (device and inode), else it is
 *    reported (ENOENT) and the rest of it is not walked.  -R, like grep's
 *    FTS_LOGICAL, opens full names: past PATH_MAX "File name too long".
 *  - --include/--exclude apply to non-directories only; --exclude-dir to
 *    directories only (also -R's links to directories).  In the tree the
 *    glob must match the whole base name.  On the command line it may match
 *    the whole operand or any part after a '/' ("--exclude=a.c" skips
 *    "x/a.c"; "--exclude-dir=d" skips "./d" but not "d/").  fnmatch without
 *    flags: '*' matches '/' and a leading '.'.  Trailing slashes of an
 *    --exclude-dir glob are ignored.  Directory operands obey --exclude-dir
 *    even without -r (skipped silently), except the implicit "." of -r.
 *  - --include vs --exclude: the LAST option (in command-line order) whose
 *    glob matches decides; when none matches, the file is excluded iff the
 *    FIRST such option was an --include.  So "--include='*.c' --exclude='a*'"
 *    searches *.c except a*, while "--exclude='a*' --include='*.c'" searches
 *    every file.  filter_order carries the order; see below.
 *  - "-" (stdin) is never excluded.
 */
#ifndef ACGREP_WALK_H
#define ACGREP_WALK_H

#include <stdbool.h>
#include <stddef.h>

struct walk_options {
	int recurse;  /* 0 none, 1 -r, 2 -R (values of enum recurse_mode) */
	int devices;  /* -D (values of enum dev_action) */
	const char *const *includes;     size_t n_includes;
	const char *const *excludes;     size_t n_excludes;
	const char *const *exclude_dirs; size_t n_exclude_dirs;
	/* The order the --include ('i') and --exclude ('e') options were given
	 * in: n_includes + n_excludes letters, the k-th 'i' standing for
	 * includes[k], the k-th 'e' for excludes[k].  NULL (or a string that
	 * does not fit the counts) means every --include came first. */
	const char *filter_order;
	/* grep -r with no file operand: the operand is an implicit "."; names
	 * are printed without the leading "./" and "." is never skipped by
	 * --exclude-dir. */
	bool omit_dot_slash;
};

struct dir_ref;

/* Called for each file to search; `path` is the name to display and to
 * open.  `dir`, when not NULL (a file -r found), is the directory that
 * holds it, open: the file is opened as its last name relative to it
 * (dir_ref.h; a search that opens it later holds a reference), which
 * costs the kernel one lookup instead of one per directory on the way
 * and works at any depth.  `command_line` is true for operands given by the user (the caller
 * then applies walk_excluded_file itself to a non-directory, after opening
 * it, as grep reports an open error first).  Files found in a walk were already filtered.
 * `plain`: the walk found a regular file (d_type, or its stat, not through
 * a link) on a disk-like file system (ext4, XFS, Btrfs, tmpfs, ...), whose
 * first short read() is its end, so that the caller may read it without
 * an fstat (input_options.plain_regular); what it opens may still be
 * anything else by then.  A non-zero return stops the walk and is
 * returned by walk_operand. */
typedef int (*walk_file_fn)(const char *path, struct dir_ref *dir, bool command_line, bool plain,
			   void *ctx);
/* Called for an error at `path` with errno value `err`; the walk goes on.
 *  - ELOOP means only "recursive directory loop" (-R met a directory that
 *    is its own ancestor): grep prints "grep: PATH: warning: recursive
 *    directory loop", does NOT set exit status 2 for it, and -s silences it.
 *  - anything else (EACCES, ...) is a directory that could not be read:
 *    grep prints "grep: PATH: <strerror>" and exits 2 (unless -s, which
 *    silences the message but keeps the status).
 * Problems with a single non-directory (a missing operand, a dangling or
 * looping symlink under -R, an unstat-able entry) never come here: the path
 * goes to on_file and the caller's open reports it as grep does. */
typedef void (*walk_error_fn)(const char *path, int err, void *ctx);

/* Visits operand `path` ("-" is stdin and always a file).  Without
 * recursion it calls on_file(path, true), unless `path` is a directory
 * matched by --exclude-dir (skipped silently, as grep does), so the caller
 * reports "Is a directory".  With recursion a directory (a symlink to one
 * is followed, being on the command line) is walked; anything else,
 * including a path that cannot be stat'ed, goes to on_file(path, true).
 * Returns 0, on_file's non-zero value, or -1 (errno ENOMEM). */
int walk_operand(const char *path, const struct walk_options *opts,
		 walk_file_fn on_file, walk_error_fn on_error, void *ctx);

/* True when a file is skipped by --include/--exclude.  For command-line
 * operands (command_line true) the globs may match the whole path or any
 * part of it after a '/'; otherwise they must match its base name.  "-" is
 * never excluded. */
bool walk_excluded_file(const char *path, const struct walk_options *opts, bool command_line);

/* True when a file on_file received is to be opened whatever its length
 * (path_open_long): one that -r found.  A command-line operand, or a file
 * -R found, of PATH_MAX bytes or more fails with ENAMETOOLONG, as in grep. */
bool walk_any_length(const struct walk_options *opts, bool command_line);

#endif
