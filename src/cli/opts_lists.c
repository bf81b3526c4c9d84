/* SPDX-License-Identifier: MIT */
/* opts_lists.c - the options that add to a list of the config: --include,
 * --exclude, --exclude-from, --exclude-dir, --files-from, --files0-from.
 *
 * Owns: the lists' growth and the --include/--exclude order (filter_order),
 * and reading --exclude-from files into globs as gnulib's add_exclude_file
 * does.  Their storage hangs off the config and opts_private (opts_free).
 */
#include <ctype.h>
#include <string.h>

#include "grow.h"
#include "opts_internal.h"
#include "opts_patterns.h"

/* Appends s to the list *arr of *n strings and capacity *cap. */
static bool push(const char ***arr, size_t *n, size_t *cap, const char *s)
{
	const char **na = grow_array(*arr, cap, *n + 1, sizeof *na, 8);
	if (!na)
		return false;
	na[(*n)++] = s;
	*arr = na;
	return true;
}

/* --include (which = 'i') or --exclude ('e'): the glob goes to its list
 * and its letter to cfg->filter_order, which keeps their relative order. */
bool opts_add_filter(struct config *cfg, char which, const char *glob)
{
	struct opts_private *priv = cfg->opts_private;
	char *no = grow_array(priv->order, &priv->cap_order, priv->n_order + 2, 1, 16);
	if (!no)
		return false;
	priv->order = no;
	if (!(which == 'i' ? push(&cfg->includes, &cfg->n_includes, &priv->cap_includes, glob)
			   : push(&cfg->excludes, &cfg->n_excludes, &priv->cap_excludes, glob)))
		return false;
	no[priv->n_order++] = which;
	no[priv->n_order] = '\0';
	cfg->filter_order = no;
	return true;
}

/* --exclude-dir=GLOB, as given: the walk ignores its trailing slashes. */
bool opts_add_exclude_dir(struct config *cfg, const char *glob)
{
	return push(&cfg->exclude_dirs, &cfg->n_exclude_dirs, &cfg->opts_private->cap_exclude_dirs,
		    glob);
}

/* --files-from (end '\n') or --files0-from ('\0'): one more list, searched
 * after those before it, as -f adds to the patterns. */
bool opts_add_files_from(struct config *cfg, const char *path, char end)
{
	struct file_list *nl = grow_array(cfg->files_from, &cfg->opts_private->cap_files_from,
					  cfg->n_files_from + 1, sizeof *nl, 2);
	if (!nl)
		return false;
	nl[cfg->n_files_from++] = (struct file_list){ .path = path, .end = end };
	cfg->files_from = nl;
	return true;
}

/* --exclude-from=FILE, as gnulib's add_exclude_file with grep's '\n':
 * each line of FILE with its trailing white space removed is an --exclude
 * glob; lines left empty are skipped.  (grep reads FILE once for operands
 * and once for files met while recursing, so with FILE "-" only the latter
 * see the globs; acgrep applies them to both.)  Returns -1 or 2. */
int opts_add_exclude_from(struct config *cfg, const char *path)
{
	struct opts_private *priv = cfg->opts_private;
	char **nf = grow_array(priv->files, &priv->cap_files, priv->n_files + 1, sizeof *nf, 4);
	if (!nf)
		return opts_oom();
	priv->files = nf;
	char *text;
	size_t len;
	if (opts_read_file(path, &text, &len) != 0)
		return 2;
	priv->files[priv->n_files++] = text;
	for (char *line = text, *end = text + len; line < end;) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		char *stop = nl ? nl : end, *next = nl ? nl + 1 : end;
		while (stop > line && isspace((unsigned char)stop[-1]))
			stop--;
		if (stop > line) {
			*stop = '\0';
			if (!opts_add_filter(cfg, 'e', line))
				return opts_oom();
		}
		line = next;
	}
	return -1;
}
