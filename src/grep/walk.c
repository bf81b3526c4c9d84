/* walk.c - turning command-line operands into the files to search.
 *
 * Owns: the -r/-R directory traversal (order, names, which symlinks and
 * special files are followed or skipped, directory loops) and the
 * --include/--exclude/--exclude-dir glob rules, all as GNU grep 3.8 (gnulib
 * fts + exclude) behaves; walk.h lists the rules.
 * Refuses to know: opening or reading files, matching, output, messages.
 * Files go to the caller's on_file, problems to on_error; nothing here
 * writes to stdout or stderr.
 */
#include "walk.h"

#include "grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <unistd.h>

/* gnulib fts: directories are read in batches of this many entries, and a
 * batch of more than SORT_THRESHOLD entries is sorted by inode number. */
#define BATCH_MAX 100000
#define SORT_THRESHOLD 10000

/* File system magic numbers for which fts skips the inode sort (-r only). */
#define MAGIC_TMPFS 0x01021994
#define MAGIC_NFS 0x6969
#define MAGIC_CIFS 0xFF534D42

/* ---- globs ------------------------------------------------------------- */

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

/* --include/--exclude decision for a non-directory `name`. */
static bool files_filtered(const struct walk_options *o, const char *name, bool anchored)
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

/* --exclude-dir patterns with trailing slashes removed (grep strips them
 * from the option argument). */
struct dir_globs {
	char **pats;
	size_t n;
};

static int dir_globs_init(struct dir_globs *g, const struct walk_options *o)
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

static void dir_globs_free(struct dir_globs *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->pats[i]);
	free(g->pats);
	g->pats = NULL;
	g->n = 0;
}

static bool dir_excluded(const struct dir_globs *g, const char *name, bool anchored)
{
	for (size_t i = 0; i < g->n; i++)
		if (glob_match(g->pats[i], name, anchored))
			return true;
	return false;
}

/* ---- traversal --------------------------------------------------------- */

/* The directories being walked, innermost first, for loop detection (like
 * fts's FTS_TIGHT_CYCLE_CHECK: only ancestors count, so two links to one
 * directory are both walked). */
struct ancestor {
	dev_t dev;
	ino_t ino;
	const struct ancestor *up;
};

struct walker {
	const struct walk_options *o;
	walk_file_fn on_file;
	walk_error_fn on_error;
	void *ctx;
	bool logical;          /* -R */
	struct dir_globs dirs;
	char *path;            /* full path of the current entry */
	size_t len, cap;
};

struct entry {
	size_t name;           /* offset into the listing's names */
	ino_t ino;
	unsigned char type;    /* d_type */
};

struct listing {
	struct entry *v;
	size_t n, cap;
	char *names;
	size_t nlen, ncap;
};

/* The name to show: without "./" under omit_dot_slash (grep: "filename + 2
 * when filename[1]"). */
static const char *shown(const struct walker *w)
{
	if (w->o->omit_dot_slash && w->path[0] && w->path[1])
		return w->path + 2;
	return w->path;
}

/* Appends "/name" to the path (one trailing slash of the parent is reused,
 * as fts does).  Returns the previous length, or SIZE_MAX on ENOMEM. */
static size_t path_push(struct walker *w, const char *name)
{
	size_t old = w->len;
	size_t base = old > 0 && w->path[old - 1] == '/' ? old - 1 : old;
	size_t nlen = strlen(name);
	char *p = grow_array(w->path, &w->cap, base + 1 + nlen + 1, 1, 256);
	if (!p)
		return SIZE_MAX;
	w->path = p;
	w->path[base] = '/';
	memcpy(w->path + base + 1, name, nlen + 1);
	w->len = base + 1 + nlen;
	return old;
}

static void path_pop(struct walker *w, size_t old)
{
	w->len = old;
	w->path[old] = '\0';
}

static int cmp_ino(const void *a, const void *b)
{
	ino_t x = ((const struct entry *)a)->ino, y = ((const struct entry *)b)->ino;
	return (x > y) - (x < y);
}

/* Reads up to BATCH_MAX entries (not "." or "..") into *l.  Returns 1 when
 * the directory may have more, 0 at its end, -1 on ENOMEM; a readdir error
 * is stored in *err and ends the listing. */
static int read_batch(DIR *d, struct listing *l, int *err)
{
	l->n = 0;
	l->nlen = 0;
	while (l->n < BATCH_MAX) {
		errno = 0;
		struct dirent *de = readdir(d);
		if (!de) {
			*err = errno;
			return 0;
		}
		const char *nm = de->d_name;
		if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2])))
			continue;
		size_t nlen = strlen(nm) + 1;
		struct entry *v = grow_array(l->v, &l->cap, l->n + 1, sizeof *v, 64);
		if (!v)
			return -1;
		l->v = v;
		char *names = grow_array(l->names, &l->ncap, l->nlen + nlen, 1, 1024);
		if (!names)
			return -1;
		l->names = names;
		memcpy(l->names + l->nlen, nm, nlen);
		l->v[l->n].name = l->nlen;
		l->v[l->n].ino = de->d_ino;
		l->v[l->n].type = de->d_type;
		l->n++;
		l->nlen += nlen;
	}
	return 1;
}

static bool inode_sort_useful(const struct walker *w, int dir_fd)
{
	if (w->logical)
		return true;  /* fts only probes the file system in FTS_CWDFD mode */
	struct statfs fs;
	if (fstatfs(dir_fd, &fs) != 0)
		return true;
	switch ((unsigned long)fs.f_type) {
	case MAGIC_TMPFS:
	case MAGIC_NFS:
	case MAGIC_CIFS:
		return false;
	default:
		return true;
	}
}

static int walk_dir(struct walker *w, const struct stat *st, const struct ancestor *up);

/* One directory entry `name` of the directory at w->path. */
static int visit(struct walker *w, const char *name, unsigned char type,
		 const struct ancestor *up)
{
	size_t old = path_push(w, name);
	if (old == SIZE_MAX) {
		errno = ENOMEM;
		return -1;
	}
	struct stat st;
	bool is_dir = false, searchable = true;

	if (w->logical) {
		/* -R: everything that is not a directory is searched, devices
		 * and fifos included.  A failed stat (dangling or looping link)
		 * is left to the caller's open, which reports it as grep does. */
		if (type == DT_DIR || type == DT_LNK || type == DT_UNKNOWN)
			is_dir = stat(w->path, &st) == 0 && S_ISDIR(st.st_mode);
	} else if (type == DT_DIR || type == DT_UNKNOWN) {
		if (lstat(w->path, &st) == 0) {
			is_dir = S_ISDIR(st.st_mode);
			searchable = S_ISREG(st.st_mode);
		}
		/* else: vanished or unreadable; the caller's open reports it. */
	} else {
		/* -r: symlinks, devices, fifos and sockets are skipped. */
		searchable = type == DT_REG;
	}

	int rc = 0;
	if (is_dir) {
		if (!dir_excluded(&w->dirs, name, true))
			rc = walk_dir(w, &st, up);
	} else if (searchable && !files_filtered(w->o, name, true)) {
		rc = w->on_file(shown(w), false, w->ctx);
	}
	path_pop(w, old);
	return rc;
}

/* Walks the directory at w->path, whose stat data is *st. */
static int walk_dir(struct walker *w, const struct stat *st, const struct ancestor *up)
{
	for (const struct ancestor *a = up; a; a = a->up) {
		if (a->dev == st->st_dev && a->ino == st->st_ino) {
			w->on_error(shown(w), ELOOP, w->ctx);
			return 0;
		}
	}
	struct ancestor me = { .dev = st->st_dev, .ino = st->st_ino, .up = up };

	int flags = O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
	if (!w->logical && up)
		flags |= O_NOFOLLOW;
	int fd;
	do
		fd = open(w->path, flags);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		/* ELOOP: the directory became a symlink since it was stat'ed
		 * (O_NOFOLLOW); grep would have skipped it.  on_error's ELOOP
		 * is reserved for directory loops. */
		if (errno != ELOOP)
			w->on_error(shown(w), errno, w->ctx);
		return 0;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		int err = errno;
		close(fd);
		w->on_error(shown(w), err, w->ctx);
		return 0;
	}

	struct listing l = { .v = NULL };
	int rc = 0, read_err = 0, more;
	do {
		more = read_batch(d, &l, &read_err);
		if (more < 0) {
			errno = ENOMEM;
			rc = -1;
			break;
		}
		if (l.n > SORT_THRESHOLD && inode_sort_useful(w, dirfd(d)))
			qsort(l.v, l.n, sizeof *l.v, cmp_ino);
		if (!more && d) {
			closedir(d);  /* done with it: no descriptor held below */
			d = NULL;
		}
		for (size_t i = 0; i < l.n && rc == 0; i++)
			rc = visit(w, l.names + l.v[i].name, l.v[i].type, &me);
	} while (more && rc == 0);

	if (d)
		closedir(d);
	free(l.v);
	free(l.names);
	if (rc == 0 && read_err)
		w->on_error(shown(w), read_err, w->ctx);
	return rc;
}

int walk_operand(const char *path, const struct walk_options *opts,
		 walk_file_fn on_file, walk_error_fn on_error, void *ctx)
{
	if (strcmp(path, "-") == 0 || (opts->recurse == 0 && opts->n_exclude_dirs == 0))
		return on_file(path, true, ctx);

	struct walker w = { .o = opts, .on_file = on_file, .on_error = on_error,
			    .ctx = ctx, .logical = opts->recurse == 2 };
	if (dir_globs_init(&w.dirs, opts) != 0) {
		dir_globs_free(&w.dirs);
		errno = ENOMEM;
		return -1;
	}

	struct stat st;
	int rc;
	bool is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	bool skip = is_dir && !(opts->recurse && opts->omit_dot_slash)
		    && dir_excluded(&w.dirs, path, false);
	if (skip) {
		rc = 0;
	} else if (!is_dir || opts->recurse == 0) {
		rc = on_file(path, true, ctx);
	} else {
		/* fts keeps at most one of several trailing slashes ("//" is
		 * left alone), and path_push reuses that one. */
		size_t len = strlen(path);
		if (len > 2 && path[len - 1] == '/')
			while (len > 1 && path[len - 2] == '/')
				len--;
		w.cap = len + 256;
		w.path = malloc(w.cap);
		if (!w.path) {
			errno = ENOMEM;
			rc = -1;
		} else {
			memcpy(w.path, path, len);
			w.path[len] = '\0';
			w.len = len;
			rc = walk_dir(&w, &st, NULL);
		}
	}
	free(w.path);
	dir_globs_free(&w.dirs);
	return rc;
}
