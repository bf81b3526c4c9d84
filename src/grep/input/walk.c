/* SPDX-License-Identifier: MIT */
/* walk.c - turning command-line operands into the files to search.
 *
 * Owns: the -r/-R directory traversal (order, names, which symlinks and
 * special files are followed or skipped, directory loops, the directory
 * descriptors a file is opened from), as GNU grep 3.8 (gnulib fts)
 * behaves; walk.h lists the rules, walk_globs.c applies the globs.
 * Directories are read with getdents64 (fdopendir would cost an fcntl and
 * an fstat a directory, and closedir would close a descriptor that
 * searches of its files still use: dir_ref.h).
 * Refuses to know: opening or reading files, matching, output, messages.
 * Files go to the caller's on_file, problems to on_error; nothing here
 * writes to stdout or stderr.
 */
#include "walk.h"
#include "dir_ref.h"
#include "walk_internal.h"

#include "grow.h"
#include "options/option_types.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <unistd.h>

/* gnulib fts: directories are read in batches of this many entries, and a
 * batch of more than SORT_THRESHOLD entries is sorted by inode number. */
#define BATCH_MAX 100000
#define SORT_THRESHOLD 10000

/* Bytes of directory entries one getdents64 call reads (glibc's readdir
 * reads as many). */
#define DENTS_BUF 32768

/* File system magic numbers for which fts skips the inode sort (-r only). */
#define MAGIC_TMPFS 0x01021994
#define MAGIC_NFS 0x6969
#define MAGIC_CIFS 0xFF534D42

/* File systems whose regular files end where a read() first comes back
 * short (no pseudo-files made as they are read, like /proc's or /sys's):
 * ext2-4, XFS, Btrfs, tmpfs, overlayfs, F2FS, ramfs, SquashFS, EROFS. */
static const unsigned long plain_magics[] = {
	0xEF53, 0x58465342, 0x9123683E, MAGIC_TMPFS, 0x794C7630, 0xF2F52010, 0x858458F6,
	0x73717368, 0xE0F5E1E2,
};

/* ---- traversal --------------------------------------------------------- */

/* Descriptors of directories -r keeps open at most (walk.h): this many, or
 * an eighth of RLIMIT_NOFILE when that is less (the rest is for the files
 * being searched); deeper, each directory lets its own go while its
 * subdirectories are walked and opens it again as their "..". */
#define WALK_HELD_DIRS 32

/* A directory being walked, for loop detection (like fts's
 * FTS_TIGHT_CYCLE_CHECK: only ancestors count, so two links to one
 * directory are both walked) and, with -r, for opening its entries. */
struct level {
	dev_t dev;
	ino_t ino;
	struct level *up;
	struct dir_ref *ref; /* its descriptor; NULL once let go */
	int fd;       /* dir_ref_fd(ref); -1 let go */
	struct dents *dents; /* read by getdents64, not yet listed */
	bool more;    /* the listing has a batch still to read */
	int lost;     /* errno: opening it again (as "..") failed */
	bool plain;   /* on a file system of plain_magics */
};

struct walker {
	const struct walk_options *o;
	walk_file_fn on_file;
	walk_error_fn on_error;
	void *ctx;
	bool logical;          /* -R */
	bool read_devices;     /* devices, fifos and sockets found go to on_file */
	unsigned held;         /* levels with fd >= 0 */
	unsigned hold_max;     /* held beyond which a parent's fd is let go */
	struct dir_globs dirs;
	char *path;            /* full path of the current entry */
	size_t len, cap;
};

/* Directory entries as getdents64 returns them, buf[pos, len) not yet
 * listed; a level's own while its listing is read, as a listing may stop
 * in the middle (BATCH_MAX) while its subdirectories are read. */
struct dents {
	size_t len, pos;
	_Alignas(8) char buf[DENTS_BUF];
};

/* The kernel's struct linux_dirent64, before the name. */
struct dent_head {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
};
#define DENT_NAME 19 /* offset of the name: the head's fields unpadded */

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

/* Reads up to BATCH_MAX entries (not "." or "..") of level lv into *l.
 * Returns 1 when the directory may have more, 0 at its end, -1 on ENOMEM;
 * a getdents64 error is stored in *err and ends the listing. */
static int read_batch(struct level *lv, struct listing *l, int *err)
{
	struct dents *d = lv->dents;
	l->n = 0;
	l->nlen = 0;
	while (l->n < BATCH_MAX) {
		if (d->pos == d->len) {
			long got;
			do
				got = syscall(SYS_getdents64, lv->fd, d->buf, sizeof d->buf);
			while (got < 0 && errno == EINTR);
			if (got <= 0) {
				*err = got < 0 ? errno : 0;
				return 0;
			}
			d->len = (size_t)got;
			d->pos = 0;
		}
		struct dent_head h;
		memcpy(&h, d->buf + d->pos, sizeof h);
		const char *nm = d->buf + d->pos + DENT_NAME;
		d->pos += h.reclen;
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
		l->v[l->n].ino = (ino_t)h.ino;
		l->v[l->n].type = h.type;
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

/* Whether directory `me` (open) is on a file system of plain_magics: its
 * parent's answer on the same device, else fstatfs (once per mount met). */
static bool plain_fs(const struct level *me, const struct level *up)
{
	if (up && up->dev == me->dev)
		return up->plain;
	struct statfs fs;
	if (fstatfs(me->fd, &fs) != 0)
		return false;
	for (size_t i = 0; i < sizeof plain_magics / sizeof plain_magics[0]; i++)
		if ((unsigned long)fs.f_type == plain_magics[i])
			return true;
	return false;
}

static bool is_device_type(unsigned char type)
{
	return type == DT_CHR || type == DT_BLK || type == DT_FIFO || type == DT_SOCK;
}

/* Lets the level's descriptor go (its listing is read in full); it
 * closes when no search of a file found there holds it any more. */
static void level_let_go(struct walker *w, struct level *lv)
{
	dir_ref_drop(lv->ref);
	lv->ref = NULL;
	lv->fd = -1;
	w->held--;
}

/* Level lv holds directory descriptor fd: 0, or -1 (fd closed, errno
 * ENOMEM). */
static int level_hold(struct walker *w, struct level *lv, int fd)
{
	lv->ref = dir_ref_new(fd);
	if (!lv->ref) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	lv->fd = fd;
	w->held++;
	return 0;
}

/* Opens parent level `up`, whose descriptor was let go, as ".." of the
 * directory open at `fd`; sets up->lost when that is not it any more. */
static void level_reopen(struct walker *w, struct level *up, int fd)
{
	int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (parent >= 0 && (fstat(parent, &st) != 0 || st.st_dev != up->dev || st.st_ino != up->ino)) {
		close(parent);
		parent = -1;
		errno = ENOENT;
	}
	if (parent < 0 || level_hold(w, up, parent) != 0)
		up->lost = errno;
}

static int walk_dir(struct walker *w, const char *name, const struct stat *st, struct level *up);

/* ENTRY_PLAIN: a regular file of a plain_magics file system, not reached
 * through a link (walk_file_fn's `plain`). */
enum entry_kind { ENTRY_SKIP, ENTRY_FILE, ENTRY_PLAIN, ENTRY_DIR };

/* What entry `name` of level `up`, of type `type` (d_type), is; *st is
 * set for a directory. */
static enum entry_kind classify(const struct walker *w, const char *name, unsigned char type,
				const struct level *up, struct stat *st)
{
	bool plain = up->plain && (type == DT_REG || (type == DT_UNKNOWN && !w->logical));
	if (type == DT_UNKNOWN || type == DT_DIR || (w->logical && type == DT_LNK)) {
		/* -R follows links; -r does not and knows its parent's fd.  A
		 * failed stat (vanished entry, dangling or looping link) is
		 * left to the caller's open, which reports it as grep does. */
		int got = w->logical ? stat(w->path, st) : fstatat(up->fd, name, st, AT_SYMLINK_NOFOLLOW);
		type = got == 0 ? IFTODT(st->st_mode) : DT_REG;
	}
	if (type == DT_DIR)
		return dir_excluded(&w->dirs, name, true) ? ENTRY_SKIP : ENTRY_DIR;
	if (type == DT_LNK)
		return ENTRY_SKIP;  /* -r */
	if (is_device_type(type) && !w->read_devices)
		return ENTRY_SKIP;
	if (files_filtered(w->o, name, true))
		return ENTRY_SKIP;
	return plain && type == DT_REG ? ENTRY_PLAIN : ENTRY_FILE;
}

/* The directory on_file opens a file of level `up` from: up's own, unless
 * -R (which opens full names) or more than twice hold_max directories are
 * open (searches not yet committed keep theirs open): NULL, the
 * file opened by its full name. */
static struct dir_ref *file_dir(const struct walker *w, const struct level *up)
{
	return !w->logical && dir_ref_open_count() <= 2 * w->hold_max ? up->ref : NULL;
}

/* One directory entry `name` of the directory at w->path (level `up`). */
static int visit(struct walker *w, const char *name, unsigned char type, struct level *up)
{
	size_t old = path_push(w, name);
	if (old == SIZE_MAX) {
		errno = ENOMEM;
		return -1;
	}
	struct stat st;
	int rc = 0;
	enum entry_kind kind = classify(w, name, type, up, &st);
	switch (kind) {
	case ENTRY_DIR:
		rc = walk_dir(w, name, &st, up);
		break;
	case ENTRY_FILE:
	case ENTRY_PLAIN:
		rc = w->on_file(shown(w), file_dir(w, up), false, kind == ENTRY_PLAIN, w->ctx);
		break;
	case ENTRY_SKIP:
		break;
	}
	path_pop(w, old);
	return rc;
}

/* Opens directory `name` of level `up` (NULL: the operand, w->path). */
static int open_dir(const struct walker *w, const char *name, const struct level *up)
{
	int flags = O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
	int fd;
	do
		fd = w->logical || !up ? open(w->path, flags) : openat(up->fd, name, flags | O_NOFOLLOW);
	while (fd < 0 && errno == EINTR);
	return fd;
}

/* Visits the entries of level `me`, a batch at a time. */
static int walk_entries(struct walker *w, struct level *me)
{
	struct listing l = { .v = NULL };
	int rc = 0, read_err = 0;
	do {
		int more = read_batch(me, &l, &read_err);
		if (more < 0) {
			errno = ENOMEM;
			rc = -1;
			break;
		}
		me->more = more > 0;
		if (!me->more) { /* read in full: a deep tree holds no buffer per level */
			free(me->dents);
			me->dents = NULL;
		}
		if (l.n > SORT_THRESHOLD && inode_sort_useful(w, me->fd))
			qsort(l.v, l.n, sizeof *l.v, cmp_ino);
		if (!me->more && w->logical)
			level_let_go(w, me);  /* -R opens full names: no descriptor held below */
		for (size_t i = 0; i < l.n && rc == 0; i++) {
			rc = visit(w, l.names + l.v[i].name, l.v[i].type, me);
			if (rc == 0 && !w->logical && me->fd < 0) {
				/* a subdirectory could not open this one again */
				w->on_error(shown(w), me->lost, w->ctx);
				me->more = false;
				break;
			}
		}
	} while (me->more && rc == 0);
	free(l.v);
	free(l.names);
	if (rc == 0 && read_err)
		w->on_error(shown(w), read_err, w->ctx);
	return rc;
}

/* Walks directory `name` of level `up` (NULL: the operand), at w->path,
 * whose stat data is *st. */
static int walk_dir(struct walker *w, const char *name, const struct stat *st, struct level *up)
{
	for (const struct level *a = up; a; a = a->up) {
		if (a->dev == st->st_dev && a->ino == st->st_ino) {
			w->on_error(shown(w), ELOOP, w->ctx);
			return 0;
		}
	}
	struct level me = { .dev = st->st_dev, .ino = st->st_ino, .up = up, .fd = -1 };
	int fd = open_dir(w, name, up);
	if (fd < 0) {
		/* ELOOP: the directory became a symlink since it was stat'ed
		 * (O_NOFOLLOW); grep would have skipped it.  on_error's ELOOP
		 * is reserved for directory loops. */
		if (errno != ELOOP)
			w->on_error(shown(w), errno, w->ctx);
		return 0;
	}
	me.dents = malloc(sizeof *me.dents);
	if (!me.dents)
		close(fd);
	if (!me.dents || level_hold(w, &me, fd) != 0) { /* fd closed */
		free(me.dents);
		w->on_error(shown(w), ENOMEM, w->ctx);
		return 0;
	}
	me.dents->len = me.dents->pos = 0;
	me.plain = plain_fs(&me, up);
	if (up && up->fd >= 0 && !up->more && w->held > w->hold_max)
		level_let_go(w, up);

	int rc = walk_entries(w, &me);
	free(me.dents);

	if (up && up->fd < 0 && !w->logical) {
		if (me.fd >= 0)
			level_reopen(w, up, me.fd);
		else
			up->lost = me.lost;  /* it was lost itself: so is its parent */
	}
	if (me.fd >= 0)
		level_let_go(w, &me);
	return rc;
}

/* How many directory descriptors -r keeps open (WALK_HELD_DIRS). */
static unsigned hold_max(void)
{
	struct rlimit lim;
	if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur / 8 >= WALK_HELD_DIRS)
		return WALK_HELD_DIRS;
	return lim.rlim_cur / 8 > 2 ? (unsigned)(lim.rlim_cur / 8) : 2;
}

bool walk_any_length(const struct walk_options *opts, bool command_line)
{
	return !command_line && opts->recurse == RECURSE_CMDLINE_LINKS;
}

int walk_operand(const char *path, const struct walk_options *opts,
		 walk_file_fn on_file, walk_error_fn on_error, void *ctx)
{
	if (strcmp(path, "-") == 0 || (opts->recurse == 0 && opts->n_exclude_dirs == 0))
		return on_file(path, NULL, true, false, ctx);

	struct walker w = {
		.o = opts, .on_file = on_file, .on_error = on_error, .ctx = ctx,
		.logical = opts->recurse == RECURSE_ALL_LINKS, .hold_max = hold_max(),
		.read_devices = opts->devices == DEVS_READ ||
				(opts->devices == DEVS_READ_COMMAND_LINE && opts->recurse == RECURSE_ALL_LINKS),
	};
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
		rc = on_file(path, NULL, true, false, ctx);
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
			rc = walk_dir(&w, w.path, &st, NULL);
		}
	}
	free(w.path);
	dir_globs_free(&w.dirs);
	return rc;
}
