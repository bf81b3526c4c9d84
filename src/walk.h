/* walk.h - expanding command-line operands into the files to search.
 *
 * Owns: -r/-R directory traversal (-r follows symlinks only when named on
 * the command line, -R follows all), --include/--exclude/--exclude-dir glob
 * filtering with GNU grep's rules.  Knows nothing of matching or output;
 * errors go to the caller's callback, never to stderr.
 */
#ifndef ACGREP_WALK_H
#define ACGREP_WALK_H

#include <stdbool.h>
#include <stddef.h>

struct walk_options {
	int recurse;  /* 0 none, 1 -r, 2 -R (values of enum recurse_mode) */
	const char *const *includes;     size_t n_includes;
	const char *const *excludes;     size_t n_excludes;
	const char *const *exclude_dirs; size_t n_exclude_dirs;
};

/* Called for each file to search; `path` is the name to display.
 * `command_line` is true for operands given by the user.  A non-zero
 * return stops the walk and is returned by walk_operand. */
typedef int (*walk_file_fn)(const char *path, bool command_line, void *ctx);
/* Called for an error at `path` with errno value `err`. */
typedef void (*walk_error_fn)(const char *path, int err, void *ctx);

/* Visits operand `path` ("-" is stdin and always a file).  A directory is
 * descended into when recursion is on (entries in sorted order is NOT
 * promised; grep uses directory order), otherwise handed to on_file so the
 * caller reports "Is a directory".  Returns 0 or on_file's non-zero value. */
int walk_operand(const char *path, const struct walk_options *opts,
		 walk_file_fn on_file, walk_error_fn on_error, void *ctx);

/* True when a command-line file operand is skipped by --include/--exclude. */
bool walk_excluded_file(const char *path, const struct walk_options *opts, bool command_line);

#endif
