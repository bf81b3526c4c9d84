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
 * Input: byte 0 chooses the file kind (bits 0-1: memfd, pipe, stdin), how
 * many -e options come before the file (bits 2-3) and after it (bits 4-5),
 * and whether the file is given twice (bit 6); the rest is the file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "fuzz_target.h"
#include "opts.h"

enum { KIND_MEMFD, KIND_PIPE, KIND_STDIN };

/* -e arguments, in turn: an empty one, newlines, a NUL-free word
 * (writable arrays: argv's type, and opts_parse writes to none). */
static char e_args[][16] = { "ab", "", "x\ny", "\n", "c\n", "longer pattern" };
static char arg0[] = "acgrep", opt_e[] = "-e", opt_f[] = "-f";

struct expect {
	struct pattern p[4096];
	size_t n;
	bool holds_nul;
	bool overflow;
};

static void expect_add(struct expect *x, const char *p, size_t len)
{
	if (x->n == sizeof x->p / sizeof *x->p) {
		x->overflow = true;
		return;
	}
	x->p[x->n++] = (struct pattern){ .bytes = p, .len = len };
	x->holds_nul = x->holds_nul || memchr(p, '\0', len);
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
	bool twice = data[0] & 0x40;
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
	x.holds_nul = x.overflow = false;
	char *argv[32];
	int argc = 0, e = 0;
	argv[argc++] = arg0;
	for (int i = 0; i < before; i++, e++) {
		argv[argc++] = opt_e;
		argv[argc++] = e_args[e];
		expect_split(&x, e_args[e], strlen(e_args[e]));
	}
	for (int i = 0; i < 1 + twice; i++) {
		argv[argc++] = opt_f;
		argv[argc++] = path;
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
	opts_free(&cfg);
	return 0;
}
