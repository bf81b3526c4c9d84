/* SPDX-License-Identifier: MIT */
/* test_walk.c - walk.c against GNU grep itself.
 *
 * Builds temporary trees (nested directories, symlinks to files and
 * directories, a dangling and a looping link, a directory loop, hidden and
 * empty files, fifos and devices, a directory big enough for fts's inode
 * sort) and, for a table of option sets and operands, runs
 * `grep [-r|-R] -l '' OPTIONS -- OPERANDS` through popen.  A small caller
 * emulation (open, the command-line --include/--exclude check, "Is a
 * directory", one byte read) turns walk_operand's callbacks into the same
 * stdout lines, stderr lines and exit status, which must be identical, in
 * order.  Cases are skipped (not failed) when no grep is installed.
 */
#include "input/dir_ref.h"
#include "input/walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static char base[] = "/tmp/acgrep-test-walk-XXXXXX";
static const char *grep_prog = "/usr/bin/grep";

/* ---- line lists -------------------------------------------------------- */

struct lines {
	char **v;
	size_t n;
};

static void add_line(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_line(struct lines *l, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = strdup(buf);
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void read_lines(FILE *f, struct lines *l)
{
	char buf[4096];
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		add_line(l, "%s", buf);
	}
}

/* Reports the first difference between two line lists. */
static bool same_lines(const struct lines *want, const struct lines *got, const char *what,
		       const char *stream)
{
	size_t n = want->n < got->n ? want->n : got->n;
	for (size_t i = 0; i < n; i++)
		if (strcmp(want->v[i], got->v[i]) != 0) {
			CHECK(0, "%s: %s line %zu: grep \"%s\", walk \"%s\"", what, stream, i + 1,
			      want->v[i], got->v[i]);
			return false;
		}
	CHECK(want->n == got->n, "%s: %s: grep %zu lines, walk %zu (first extra: \"%s\")", what,
	      stream, want->n, got->n,
	      want->n > got->n ? want->v[n] : got->n > want->n ? got->v[n] : "");
	return want->n == got->n;
}

/* ---- the caller emulation ---------------------------------------------- */

struct run {
	const struct walk_options *o;
	struct lines out, err;
	bool error;
};

/* Opens what the walk found as acgrep does: relative to its directory
 * where the walk gives one (so the tests see that it is the right one). */
static int on_file(const char *path, struct dir_ref *dir, bool command_line, bool plain, void *ctx)
{
	(void)plain;
	struct run *r = ctx;
	int fd = dir ? openat(dir_ref_fd(dir), dir_ref_entry_name(path), O_RDONLY | O_NOCTTY)
		     : open(path, O_RDONLY | O_NOCTTY);
	if (fd < 0) {
		add_line(&r->err, "grep: %s: %s", path, strerror(errno));
		r->error = true;
		return 0;
	}
	struct stat st;
	fstat(fd, &st);
	if (S_ISDIR(st.st_mode)) {
		add_line(&r->err, "grep: %s: Is a directory", path);
		r->error = true;
	} else if (!(command_line && walk_excluded_file(path, r->o, true))) {
		char c;
		if (read(fd, &c, 1) == 1)
			add_line(&r->out, "%s", path);
	}
	close(fd);
	return 0;
}

static void on_error(const char *path, int err, void *ctx)
{
	struct run *r = ctx;
	if (err == ELOOP) {
		add_line(&r->err, "grep: %s: warning: recursive directory loop", path);
	} else {
		add_line(&r->err, "grep: %s: %s", path, strerror(err));
		r->error = true;
	}
}

/* ---- cases ------------------------------------------------------------- */

enum { R0 = 1, RR = 2, RCAP = 4, BOTH = RR | RCAP };

struct wcase {
	const char *root;  /* directory under base to run in */
	int modes;         /* R0: no -r, RR: -r, RCAP: -R */
	const char *opts;  /* space-separated options */
	const char *ops;   /* space-separated operands; "" = none */
};

static const struct wcase cases[] = {
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d/" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d//" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "./d" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d/." },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "." },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "./" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d/sub d/a.c d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=x.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=sub/x.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=*sub/x.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=d/*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=a\\.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=[ab].*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=.*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=sp*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=*", .ops = "d/sub" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=sub", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=d/sub", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=*/sub", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=sub/", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=sub//", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=d", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=d", .ops = "d/" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=d", .ops = "./d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=lnk_dir", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=loop", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=lnk_dir", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=.", .ops = "." },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=.", .ops = "" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=*", .ops = "" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=", .ops = "d/" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude-dir=sub", .ops = "d/sub d/sub/ d/sub/x.c" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=sub", .ops = "d/sub" },
	{ .root = "t", .modes = BOTH, .opts = "--include=*.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--include=*.c --exclude=a*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=a* --include=*.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--include=*.c --include=*.h --exclude=b*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=b* --include=*.c --include=*.h", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--include=*.c --exclude=*.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=*.c --include=*.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--include=*.c --exclude=a* --include=a.c", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=top --include=*.c --exclude=x*", .ops = "d" },
	{ .root = "t", .modes = BOTH, .opts = "--include=*.h", .ops = "d/a.c d/b.h d" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=*.c", .ops = "d/a.c d/b.h" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=a.c", .ops = "d//a.c d/b.h ./d/./a.c" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=d", .ops = "d/a.c" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=d*", .ops = "d/a.c" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=d/a*", .ops = "d/a.c" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=/a.c", .ops = "d/a.c d//a.c" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=/a*", .ops = "d/a.c d//a.c" },
	{ .root = "t", .modes = BOTH, .opts = "--include=sub", .ops = "d/sub/x.c" },
	{ .root = "t", .modes = BOTH, .opts = "--include=sub/x.c", .ops = "d/sub/x.c" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=*.c", .ops = "nosuch.c d/a.c" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "nosuch d/a.c" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d/dangling d/selfloop d/sub/lnk_file" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d/sub/loop" },
	{ .root = "t", .modes = BOTH, .opts = "", .ops = "d/sub/lnk_dir" },
	{ .root = "t", .modes = BOTH, .opts = "--exclude=dangling --exclude=selfloop", .ops = "d" },
	{ .root = "t", .modes = R0, .opts = "", .ops = "d d/a.c" },
	{ .root = "t", .modes = R0, .opts = "--exclude-dir=sub", .ops = "d/sub d/a.c" },
	{ .root = "t", .modes = R0, .opts = "--exclude-dir=d", .ops = "d/ d/a.c" },
	{ .root = "t", .modes = R0, .opts = "--exclude-dir=*", .ops = "d/a.c d ." },
	{ .root = "t", .modes = R0, .opts = "--exclude=*.c", .ops = "d/a.c d/b.h d" },
	{ .root = "t", .modes = R0, .opts = "--include=*.h --exclude=b*", .ops = "d/a.c d/b.h" },
	{ .root = "t", .modes = R0, .opts = "", .ops = "nosuch d/dangling d/sub/lnk_file" },
	{ .root = "s", .modes = RR, .opts = "", .ops = "p" },
	{ .root = "s", .modes = RR, .opts = "", .ops = "" },
	{ .root = "s", .modes = RCAP, .opts = "--exclude=fifo", .ops = "p" },
	{ .root = "s", .modes = RCAP, .opts = "--exclude=fifo --exclude=sock", .ops = "" },
	{ .root = "big", .modes = BOTH, .opts = "", .ops = "b" },
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* Appends `s` to `dst` in single quotes for the shell. */
static void shell_quote(char *dst, size_t cap, const char *s)
{
	size_t n = strlen(dst);
	if (n + 1 < cap)
		dst[n++] = '\'';
	for (; *s && n + 5 < cap; s++) {
		if (*s == '\'') {
			memcpy(dst + n, "'\\''", 4);
			n += 4;
		} else {
			dst[n++] = *s;
		}
	}
	if (n + 2 < cap) {
		dst[n++] = '\'';
		dst[n++] = ' ';
	}
	dst[n] = '\0';
}

#define MAX_WORDS 16

static size_t split(char *s, char **words)
{
	size_t n = 0;
	for (char *tok = strtok(s, " "); tok && n < MAX_WORDS; tok = strtok(NULL, " "))
		words[n++] = tok;
	return n;
}

static void run_case(const struct wcase *c, int mode)
{
	int recurse = mode == RR ? 1 : mode == RCAP ? 2 : 0;
	const char *flag = recurse == 1 ? "-r" : recurse == 2 ? "-R" : "";
	char what[512];
	snprintf(what, sizeof what, "[%s] grep %s %s -- %s", c->root, flag, c->opts, c->ops);

	char optbuf[512], opbuf[512];
	char *opt[MAX_WORDS], *op[MAX_WORDS];
	snprintf(optbuf, sizeof optbuf, "%s", c->opts);
	snprintf(opbuf, sizeof opbuf, "%s", c->ops);
	size_t nopt = split(optbuf, opt), nop = split(opbuf, op);

	/* Options as opts.c would hand them over. */
	const char *inc[MAX_WORDS], *exc[MAX_WORDS], *xd[MAX_WORDS];
	char order[MAX_WORDS + 1];
	size_t ni = 0, ne = 0, nd = 0, no = 0;
	char cmd[2048];
	/* Run as plain "grep" so its messages start with "grep: ". */
	snprintf(cmd, sizeof cmd, "cd '%s/%s' && PATH=%.*s:\"$PATH\" LC_ALL=C grep %s -l '' ", base,
		 c->root, (int)(strrchr(grep_prog, '/') - grep_prog), grep_prog, flag);
	for (size_t i = 0; i < nopt; i++) {
		shell_quote(cmd, sizeof cmd, opt[i]);
		if (strncmp(opt[i], "--include=", 10) == 0) {
			inc[ni++] = opt[i] + 10;
			order[no++] = 'i';
		} else if (strncmp(opt[i], "--exclude=", 10) == 0) {
			exc[ne++] = opt[i] + 10;
			order[no++] = 'e';
		} else if (strncmp(opt[i], "--exclude-dir=", 14) == 0) {
			xd[nd++] = opt[i] + 14;
		}
	}
	order[no] = '\0';
	strcat(cmd, "-- ");
	for (size_t i = 0; i < nop; i++)
		shell_quote(cmd, sizeof cmd, op[i]);
	size_t cl = strlen(cmd);
	snprintf(cmd + cl, sizeof cmd - cl, "2>'%s/err.txt'", base);

	struct lines gout = { 0 }, gerr = { 0 };
	FILE *p = popen(cmd, "r");
	if (!p) {
		CHECK(0, "%s: popen failed", what);
		return;
	}
	read_lines(p, &gout);
	int st = pclose(p);
	int grc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	char errpath[300];
	snprintf(errpath, sizeof errpath, "%s/err.txt", base);
	FILE *ef = fopen(errpath, "r");
	if (ef) {
		read_lines(ef, &gerr);
		fclose(ef);
	}

	struct walk_options o = {
		.recurse = recurse,
		.includes = inc, .n_includes = ni,
		.excludes = exc, .n_excludes = ne,
		.exclude_dirs = xd, .n_exclude_dirs = nd,
		.filter_order = order,
		.omit_dot_slash = recurse && nop == 0,
	};
	struct run r = { .o = &o };
	char cwd[4096], dir[400];
	snprintf(dir, sizeof dir, "%s/%s", base, c->root);
	if (!getcwd(cwd, sizeof cwd) || chdir(dir) != 0) {
		CHECK(0, "%s: chdir", what);
		return;
	}
	if (nop == 0)
		CHECK(walk_operand(".", &o, on_file, on_error, &r) == 0, "%s: walk .", what);
	for (size_t i = 0; i < nop; i++)
		CHECK(walk_operand(op[i], &o, on_file, on_error, &r) == 0, "%s: walk %s", what, op[i]);
	if (chdir(cwd) != 0)
		exit(2);
	int wrc = r.error ? 2 : r.out.n ? 0 : 1;

	same_lines(&gout, &r.out, what, "stdout");
	same_lines(&gerr, &r.err, what, "stderr");
	CHECK(grc == wrc, "%s: exit status grep %d, walk %d", what, grc, wrc);

	/* Without filter_order, walk assumes every --include came first. */
	if (strstr(order, "ei") == NULL) {
		struct walk_options o2 = o;
		o2.filter_order = NULL;
		for (size_t i = 0; i < nop; i++)
			CHECK(walk_excluded_file(op[i], &o, true) == walk_excluded_file(op[i], &o2, true),
			      "%s: filter_order NULL differs for %s", what, op[i]);
	}
	free_lines(&gout);
	free_lines(&gerr);
	free_lines(&r.out);
	free_lines(&r.err);
}

/* ---- trees ------------------------------------------------------------- */

static void make(const char *rel, char kind, const char *arg)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", base, rel);
	int ok = 1;
	switch (kind) {
	case 'd':
		ok = mkdir(path, 0755) == 0;
		break;
	case 'f': {
		FILE *f = fopen(path, "w");
		ok = f && fputs(arg, f) >= 0 && fclose(f) == 0;
		break;
	}
	case 'l':
		ok = symlink(arg, path) == 0;
		break;
	case 'p':
		ok = mkfifo(path, 0644) == 0;
		break;
	case 's': {
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		size_t plen = strlen(path);
		ok = plen < sizeof a.sun_path;
		if (ok)
			memcpy(a.sun_path, path, plen + 1);
		ok = ok && fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
		if (fd >= 0)
			close(fd);
		break;
	}
	case 'c':
		ok = 1;
		(void)mknod(path, S_IFCHR | 0666, makedev(1, 3)); /* root only */
		break;
	}
	if (!ok) {
		perror(path);
		exit(2);
	}
}

static void build_trees(void)
{
	/* kind: 'd' directory, 'f' file (arg: its text), 'l' symlink (arg: its
	 * target), 'p' fifo, 's' socket, 'c' character device */
	static const struct { const char *rel; char kind; const char *arg; } t[] = {
		{ .rel = "t", .kind = 'd' },
		{ .rel = "t/d", .kind = 'd' },
		{ .rel = "t/d/sub", .kind = 'd' },
		{ .rel = "t/d/sub/deep", .kind = 'd' },
		{ .rel = "t/d/other", .kind = 'd' },
		{ .rel = "t/e", .kind = 'd' },
		{ .rel = "t/top.c", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/e/e.c", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/a.c", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/b.h", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/top", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/.hidden", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/empty", .kind = 'f', .arg = "" },
		{ .rel = "t/d/sp ace.c", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/sub/x.c", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/sub/deep/y.txt", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/other/z.c", .kind = 'f', .arg = "hi\n" },
		{ .rel = "t/d/sub/lnk_file", .kind = 'l', .arg = "../top" },
		{ .rel = "t/d/sub/lnk_dir", .kind = 'l', .arg = "../other" },
		{ .rel = "t/d/dangling", .kind = 'l', .arg = "nowhere" },
		{ .rel = "t/d/selfloop", .kind = 'l', .arg = "selfloop" },
		{ .rel = "t/d/sub/loop", .kind = 'l', .arg = ".." },
		{ .rel = "t/d/devnull", .kind = 'l', .arg = "/dev/null" },
		{ .rel = "s", .kind = 'd' },
		{ .rel = "s/p", .kind = 'd' },
		{ .rel = "s/p/reg", .kind = 'f', .arg = "hi\n" },
		{ .rel = "s/p/fifo", .kind = 'p' },
		{ .rel = "s/p/sock", .kind = 's' },
		{ .rel = "s/p/cdev", .kind = 'c' },
		{ .rel = "s/p/devnull", .kind = 'l', .arg = "/dev/null" },
		{ .rel = "s/p/lnk", .kind = 'l', .arg = "reg" },
		{ .rel = "big", .kind = 'd' },
		{ .rel = "big/b", .kind = 'd' },
		{ .rel = "big/b/sub", .kind = 'd' },
		{ .rel = "big/b/sub/in", .kind = 'f', .arg = "hi\n" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		make(t[i].rel, t[i].kind, t[i].arg);
	/* More than 10000 entries: fts sorts them by inode number. */
	char rel[64];
	for (int i = 0; i < 10050; i++) {
		snprintf(rel, sizeof rel, "big/b/f%d", i);
		make(rel, 'f', "x\n");
	}
}

/* Pure glob rules, no grep needed. */
static void glob_rules(void)
{
	const char *inc[] = { "*.c" }, *exc[] = { "a*" };
	struct walk_options o = { .includes = inc, .n_includes = 1, .excludes = exc,
				  .n_excludes = 1, .filter_order = "ie" };
	CHECK(walk_excluded_file("d/a.c", &o, false), "ie: a.c excluded");
	CHECK(!walk_excluded_file("d/x.c", &o, false), "ie: x.c searched");
	CHECK(walk_excluded_file("d/x.h", &o, false), "ie: x.h excluded");
	CHECK(!walk_excluded_file("-", &o, true), "stdin never excluded");
	o.filter_order = "ei";
	CHECK(!walk_excluded_file("d/a.c", &o, false), "ei: a.c searched");
	CHECK(!walk_excluded_file("d/x.h", &o, false), "ei: x.h searched");
	o.filter_order = "bogus";
	CHECK(walk_excluded_file("d/a.c", &o, false), "bad order falls back to ie");
	o.filter_order = NULL;
	CHECK(walk_excluded_file("x.h", &o, true), "NULL order: include first");
	CHECK(!walk_excluded_file("x/y.c", &o, true), "cmdline: x/y.c included");
	CHECK(walk_excluded_file("x/ab.c", &o, true), "cmdline: suffix ab.c excluded");
	CHECK(!walk_excluded_file("ab/x.c", &o, false), "tree: base name only");
	struct walk_options none = { 0 };
	CHECK(!walk_excluded_file("anything", &none, true), "no globs: nothing excluded");
}

/* The walk rules were taken from GNU grep 3.8; older ones differ. */
static bool gnu_grep_3_8_or_later(void)
{
	char cmd[300], line[256] = "";
	snprintf(cmd, sizeof cmd, "%s --version 2>/dev/null", grep_prog);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	if (!fgets(line, sizeof line, p))
		line[0] = '\0';
	pclose(p);
	int major = 0, minor = 0;
	const char *v = strstr(line, "(GNU grep) ");
	if (!v || sscanf(v + 11, "%d.%d", &major, &minor) != 2)
		return false;
	return major > 3 || (major == 3 && minor >= 8);
}

static void cleanup(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", base);
}

int main(void)
{
	glob_rules();
	if (!gnu_grep_3_8_or_later()) {
		printf("note: no GNU grep >= 3.8 at %s; the comparisons with it are skipped\n",
		       grep_prog);
		printf("%d passed, %d failed\n", passed, failed);
		return failed != 0;
	}
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 2;
	}
	build_trees();
	for (size_t i = 0; i < N_CASES; i++)
		for (int m = R0; m <= RCAP; m <<= 1)
			if (cases[i].modes & m)
				run_case(&cases[i], m);
	cleanup();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
