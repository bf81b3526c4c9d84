/* SPDX-License-Identifier: MIT */
/* walk_globs.c - the --include/--exclude/--exclude-dir rules of the walk
 * (see walk.h for GNU grep's rules, walk_internal.h for what walk.c uses).
 */
#include "walk.h"
#include "walk_internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* True when gnulib's exclude module would treat `pat` as a wildcard pattern
 * (unescaped ? * [ ]) rather than a literal name. */
static bool has_wildcards(const char *pat)
{
	for (const char *p = pat; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '?' || *p == '*' || *p == '[' || *p == ']')
			return true;
	}
	return false;
}

/* `s` equals literal pattern `pat` once its backslash escapes are removed. */
static bool literal_equal(const char *pat, const char *s)
{
	for (;; pat++, s++) {
		if (*pat == '\\' && pat[1])
			pat++;
		if (*pat != *s)
			return false;
		if (!*pat)
			return true;
	}
}

/* One glob against `name`.  Anchored: the whole name.  Unanchored (command
 * line): the whole name or any suffix after a '/' (gnulib's two matchers
 * differ in how they step over "//", reproduced here). */
static bool glob_match(const char *pat, const char *name, bool anchored)
{
	if (has_wildcards(pat)) {
		if (fnmatch(pat, name, 0) == 0)
			return true;
		if (!anchored)
			for (const char *p = name; *p; p++)
				if (*p == '/' && p[1] != '/' && fnmatch(pat, p + 1, 0) == 0)
					return true;
		return false;
	}
	const char *f = name;
	do {
		if (literal_equal(pat, f))
			return true;
		if (anchored)
			break;
		f = strchr(f, '/');
		if (f)
			f++;
	} while (f);
	return false;
}

bool files_filtered(const struct walk_options *o, const char *name, bool anchored)
{
	size_t ni = o->n_includes, ne = o->n_excludes, total = ni + ne;
	if (total == 0)
		return false;
	const char *order = o->filter_order;
	if (order) {
		size_t ci = 0, ce = 0, k = 0;
		for (; order[k]; k++) {
			if (order[k] == 'i')
				ci++;
			else if (order[k] == 'e')
				ce++;
			else
				break;
		}
		if (order[k] || ci != ni || ce != ne)
			order = NULL;
	}
	/* The last option whose glob matches decides. */
	size_t i = ni, e = ne;
	for (size_t k = total; k-- > 0;) {
		bool inc = order ? order[k] == 'i' : k < ni;
		const char *pat = inc ? o->includes[--i] : o->excludes[--e];
		if (glob_match(pat, name, anchored))
			return !inc;
	}
	/* None matched: the reverse of the first option. */
	return order ? order[0] == 'i' : ni > 0;
}

bool walk_excluded_file(const char *path, const struct walk_options *opts, bool command_line)
{
	if (command_line) {
		if (strcmp(path, "-") == 0)
			return false;
		return files_filtered(opts, path, false);
	}
	const char *slash = strrchr(path, '/');
	return files_filtered(opts, slash ? slash + 1 : path, true);
}

int dir_globs_init(struct dir_globs *g, const struct walk_options *o)
{
	g->n = 0;
	g->pats = NULL;
	if (o->n_exclude_dirs == 0)
		return 0;
	g->pats = calloc(o->n_exclude_dirs, sizeof *g->pats);
	if (!g->pats)
		return -1;
	for (; g->n < o->n_exclude_dirs; g->n++) {
		const char *src = o->exclude_dirs[g->n];
		size_t len = strlen(src);
		while (len > 1 && src[len - 1] == '/')
			len--;
		g->pats[g->n] = strndup(src, len);
		if (!g->pats[g->n])
			return -1;
	}
	return 0;
}

void dir_globs_free(struct dir_globs *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->pats[i]);
	free(g->pats);
	g->pats = NULL;
	g->n = 0;
}

bool dir_excluded(const struct dir_globs *g, const char *name, bool anchored)
{
	for (size_t i = 0; i < g->n; i++)
		if (glob_match(g->pats[i], name, anchored))
			return true;
	return false;
}
