/* SPDX-License-Identifier: MIT */
/* fuzz_patfile.c - libFuzzer target: reading and splitting -f pattern
 * files (opts.c's word-at-a-time splitter) against a naive split.
 *
 * Owns: handing the input to opts_parse as the contents of a -f file
 * (a memfd, which fstat sizes as a regular file; a pipe, read in chunks;
 * or standard input, "-f -"), between -e options and possibly twice, and
 * checking the resulting struct pattern_set byte for byte against the
 * patterns split the obvious way: each -e argument on every newline; a
 * file, unless empty, after dropping one final newline.  Each pattern
 * must be followed by a NUL in the storage, and holds_nul must say
 * whether any pattern holds a NUL.
 *
 * With bit 7 of byte 0 the file is a --tagged-file list instead: each
 * line a tag, a run of TABs and a pattern, checked against the obvious
 * reading (empty lines and '#' lines skipped; an error, exit 2, when a
 * line has no TAB, an empty tag or pattern, or a CR at its end), and every pattern's tag (an -e pattern's
 * its own text) against cfg.tags: the distinct tags in order of first use.
 *
 * Input: byte 0 chooses the file kind (bits 0-1: memfd, pipe, stdin), how
 * many -e options come before the file (bits 2-3) and after it (bits 4-5),
 * whether the file is given twice (bit 6) and whether it is a tagged list
 * (bit 7); the rest is the file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_target.h"
#include "options/config.h"
#include "opts.h"

enum { KIND_MEMFD, KIND_PIPE, KIND_STDIN };

/* -e arguments, in turn: an empty one, newlines, a NUL-free word
 * (writable arrays: argv's type, and opts_parse writes to none). */
static char e_args[][16] = { "ab", "", "x\ny", "\n", "c\n", "longer pattern" };
static char arg0[] = "acgrep", opt_e[] = "-e", opt_f[] = "-f", opt_tagged[] = "--tagged-file";

struct expect {
	struct pattern p[4096];
	struct pattern tag[4096]; /* each pattern's tag (in a tagged run) */
	size_t n;
	bool holds_nul;
	bool overflow;
	bool bad_line;            /* a tagged list's line is no TAG<TAB>PATTERN */
};

static void expect_add(struct expect *x, const char *p, size_t len)
{
	if (x->n == sizeof x->p / sizeof *x->p) {
		x->overflow = true;
		return;
	}
	x->tag[x->n] = (struct pattern){ .bytes = p, .len = len };
	x->p[x->n++] = (struct pattern){ .bytes = p, .len = len };
	x->holds_nul = x->holds_nul || memchr(p, '\0', len);
}

/* The obvious reading of a tagged list's line, byte by byte. */
static void expect_tagged_line(struct expect *x, const char *line, size_t len)
{
	size_t tab = 0, at;
	if (len == 0 || line[0] == '#') /* a comment or a blank line */
		return;
	while (tab < len && line[tab] != '\t')
		tab++;
	for (at = tab; at < len && line[at] == '\t';)
		at++;
	if (tab == len || tab == 0 || at == len || line[len - 1] == '\r') {
		x->bad_line = true;
		return;
	}
	expect_add(x, line + at, len - at);
	if (!x->overflow)
		x->tag[x->n - 1] = (struct pattern){ .bytes = line, .len = tab };
}

static void expect_tagged(struct expect *x, const char *text, size_t len)
{
	size_t start = 0;
	for (size_t i = 0; i <= len; i++)
		if (i == len ? start < len : text[i] == '\n') {
			expect_tagged_line(x, text + start, i - start);
			start = i + 1;
		}
}

static bool same(struct pattern a, struct pattern b)
{
	return a.len == b.len && memcmp(a.bytes, b.bytes, a.len) == 0;
}

/* cfg->tags against x: each pattern's tag, the names distinct and in
 * order of first use. */
static void check_tags(const struct config *cfg, const struct expect *x)
{
	const struct pattern_tags *t = &cfg->tags;
	uint32_t next = 0;
	if (!t->of) {
		fprintf(stderr, "a tagged list left the patterns untagged\n");
		abort();
	}
	for (size_t i = 0; i < x->n; i++) {
		if (t->of[i] > next || t->of[i] >= t->names.count ||
		    !same(pattern_at(&t->names, t->of[i]), x->tag[i])) {
			fprintf(stderr, "pattern %zu: tag %u of %zu, expected %zu bytes\n", i,
				(unsigned)t->of[i], t->names.count, x->tag[i].len);
			abort();
		}
		next += t->of[i] == next;
	}
	for (size_t a = 0; a < t->names.count; a++)
		for (size_t b = a + 1; b < t->names.count; b++)
			if (same(pattern_at(&t->names, a), pattern_at(&t->names, b))) {
				fprintf(stderr, "tags %zu and %zu are the same\n", a, b);
				abort();
			}
	if (next != t->names.count) {
		fprintf(stderr, "%zu tags, %u used\n", t->names.count, (unsigned)next);
		abort();
	}
}

/* The obvious split of text[0..len) on '\n' (from the front, byte by byte). */
static void expect_split(struct expect *x, const char *text, size_t len)
{
	size_t start = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n') {
			expect_add(x, text + start, i - start);
			start = i + 1;
		}
	expect_add(x, text + start, len - start);
}

static void expect_file(struct expect *x, const char *text, size_t len)
{
	if (len == 0)
		return;
	expect_split(x, text, text[len - 1] == '\n' ? len - 1 : len);
}

/* An fd from which the file reads as data[0..len), positioned at 0;
 * -1 when the kind cannot take it. */
static int make_file(int kind, const uint8_t *data, size_t len)
{
	if (kind == KIND_MEMFD) {
		int fd = memfd_create("patterns", MFD_CLOEXEC);
		if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len))
			abort();
		return fd;
	}
	int p[2];
	if (len > 65536 || pipe(p) != 0) /* a pipe holds 64 KiB: no writer needed */
		return -1;
	if (len && write(p[1], data, len) != (ssize_t)len)
		abort();
	close(p[1]);
	return p[0];
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int kind = data[0] & 3, before = data[0] >> 2 & 3, after = data[0] >> 4 & 3;
	bool twice = data[0] & 0x40, tagged = data[0] & 0x80;
	if (kind > KIND_STDIN || (twice && kind != KIND_MEMFD))
		return 0; /* a pipe reads empty the second time */
	const char *file = (const char *)data + 1;
	size_t len = size - 1;
	int fd = make_file(kind, data + 1, len);
	if (fd < 0)
		return 0;
	int saved_stdin = -1;
	char path[64];
	if (kind == KIND_STDIN) {
		saved_stdin = dup(STDIN_FILENO);
		if (saved_stdin < 0 || dup2(fd, STDIN_FILENO) < 0)
			abort();
		snprintf(path, sizeof path, "-");
	} else {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}

	static struct expect x;
	x.n = 0;
	x.holds_nul = x.overflow = x.bad_line = false;
	char *argv[32];
	int argc = 0, e = 0;
	argv[argc++] = arg0;
	for (int i = 0; i < before; i++, e++) {
		argv[argc++] = opt_e;
		argv[argc++] = e_args[e];
		expect_split(&x, e_args[e], strlen(e_args[e]));
	}
	for (int i = 0; i < 1 + twice; i++) {
		argv[argc++] = tagged ? opt_tagged : opt_f;
		argv[argc++] = path;
		if (tagged)
			expect_tagged(&x, file, len);
		else
			expect_file(&x, file, len);
	}
	for (int i = 0; i < after; i++, e++) {
		argv[argc++] = opt_e;
		argv[argc++] = e_args[e];
		expect_split(&x, e_args[e], strlen(e_args[e]));
	}
	argv[argc] = NULL;

	static struct config cfg;
	int status = opts_parse(argc, argv, &cfg);
	if (saved_stdin >= 0) {
		dup2(saved_stdin, STDIN_FILENO);
		close(saved_stdin);
	}
	close(fd);
	if (x.overflow) {
		opts_free(&cfg);
		return 0;
	}
	if (x.bad_line) {
		if (status != 2) {
			fprintf(stderr, "a bad tagged line: opts_parse returned %d, not 2\n", status);
			abort();
		}
		return 0;
	}
	if (x.n == 0) { /* no pattern at all: grep exits 1 at once */
		if (status != 1) {
			fprintf(stderr, "no patterns: opts_parse returned %d, not 1\n", status);
			abort();
		}
		return 0;
	}
	if (status != -1) {
		fprintf(stderr, "opts_parse returned %d\n", status);
		abort();
	}
	const struct pattern_set *ps = &cfg.patterns;
	if (ps->count != x.n || ps->holds_nul != x.holds_nul) {
		fprintf(stderr, "%zu patterns (holds_nul %d), expected %zu (%d)\n", ps->count, ps->holds_nul,
			x.n, x.holds_nul);
		abort();
	}
	for (size_t i = 0; i < x.n; i++) {
		struct pattern p = pattern_at(ps, i);
		if (p.len != x.p[i].len || memcmp(p.bytes, x.p[i].bytes, p.len) != 0 || p.bytes[p.len] != '\0') {
			fprintf(stderr, "pattern %zu: %zu bytes, expected %zu\n", i, p.len, x.p[i].len);
			abort();
		}
	}
	if (tagged)
		check_tags(&cfg, &x);
	else if (cfg.tags.of) {
		fprintf(stderr, "no tagged list, yet tags\n");
		abort();
	}
	opts_free(&cfg);
	return 0;
}
