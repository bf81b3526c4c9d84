/* SPDX-License-Identifier: MIT */
/* test_input.c - input.c: windows of whole lines, by mmap and by read().
 *
 * Every content case runs through every read chunk size (1, 2, 3, 7, 64,
 * 4096, default) on both the mmap and read() paths, with and without kept
 * before-context lines, and checks that the windows concatenate back to the
 * input, end on a terminator (all but the last), carry the right offsets and
 * kept lines.  Pipes (with EINTR storms), a partly consumed stdin, a 10 MB
 * single line, errors and the SIGBUS guard have their own cases.  The
 * automatic policy has its own: which kinds and sizes it maps at open, the
 * switch from read() to the mapping at a long line (same bytes, offsets and
 * kept lines as both forced paths), and the aligned, reused read() buffer.
 */
#include "input/input.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static char tmpdir[] = "/tmp/acgrep-test-input-XXXXXX";

static const size_t chunks[] = { 1, 2, 3, 7, 64, 4096, 0 };
#define N_CHUNKS (sizeof chunks / sizeof chunks[0])

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* The last min(keep, complete lines in data[0..off)) lines before `off`. */
static size_t expected_before(const char *data, size_t off, size_t keep, char eol)
{
	size_t pos = off;
	for (size_t k = 0; k < keep && pos > 0; k++) {
		size_t q = pos - 1;
		while (q > 0 && data[q - 1] != eol)
			q--;
		pos = q;
	}
	return off - pos;
}

/* Whether the last drain_and_check had a window from a mapping. */
static bool drained_mapped;

/* Drains `in`, checking every window against `want`.  Returns the number
 * of windows, or -1 after a read error. */
static long drain_and_check(struct input *in, const char *want, size_t wlen, char eol,
			    size_t keep, const char *what)
{
	struct window w;
	size_t got = 0;
	long nwin = 0;
	bool saw_last = false;
	int r;
	char *copy = malloc(wlen + 1);
	drained_mapped = false;
	while ((r = input_next(in, &w)) == 1) {
		nwin++;
		drained_mapped |= in->mapped;
		CHECK(!saw_last, "%s: window after a last one", what);
		CHECK(w.len > 0, "%s: empty window", what);
		CHECK(w.offset == got, "%s: offset %llu, want %zu", what,
		      (unsigned long long)w.offset, got);
		if (got + w.len > wlen) {
			CHECK(0, "%s: windows longer than the input", what);
			break;
		}
		memcpy(copy + got, w.data, w.len);
		if (!w.last)
			CHECK(w.data[w.len - 1] == eol, "%s: window %ld does not end with eol", what, nwin);
		size_t eb = expected_before(want, got, keep, eol);
		CHECK(w.before == eb, "%s: before %zu, want %zu at %zu", what, w.before, eb, got);
		if (w.before == eb && eb)
			CHECK(memcmp(w.data - w.before, want + got - eb, eb) == 0,
			      "%s: kept lines differ at %zu", what, got);
		/* No window may end inside a line (before the input's end). */
		if (got + w.len < wlen)
			CHECK(w.data[w.len - 1] == eol, "%s: split line at %zu", what, got + w.len);
		got += w.len;
		saw_last = w.last;
	}
	CHECK(r == 0, "%s: input_next returned %d (%s)", what, r, strerror(errno));
	CHECK(got == wlen, "%s: got %zu bytes, want %zu", what, got, wlen);
	CHECK(got != wlen || wlen == 0 || memcmp(copy, want, wlen) == 0, "%s: content differs", what);
	CHECK(input_next(in, &w) == 0, "%s: input_next after the end", what);
	free(copy);
	return r < 0 ? -1 : nwin;
}

struct content {
	const char *name;
	const char *data;
	size_t len;
	char eol;
};

#define C(case_name, lit, terminator) \
	{ .name = case_name, .data = lit, .len = sizeof lit - 1, .eol = terminator }
static const struct content contents[] = {
	C("empty", "", '\n'),
	C("one byte", "a", '\n'),
	C("newline only", "\n", '\n'),
	C("newlines", "\n\n\n", '\n'),
	C("final newline", "alpha\nbeta\ngamma\n", '\n'),
	C("no final newline", "alpha\nbeta\ngamma", '\n'),
	C("crlf", "one\r\ntwo\r\nthree\r\n", '\n'),
	C("crlf no final", "one\r\ntwo\r", '\n'),
	C("nul bytes", "a\0b\nc\0\0d\n\0", '\n'),
	C("z: nul lines", "one\0two\0three\0", '\0'),
	C("z: no final nul", "one\0two\0thr\nee", '\0'),
	C("z: newlines are data", "a\nb\n", '\0'),
	C("long and short", "x\nyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	  "yyyyyyyyyyyyyyyyyyyyyyyyyyyy\n\nz\n", '\n'),
};
#define N_CONTENTS (sizeof contents / sizeof contents[0])

static void file_cases(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/content", tmpdir);
	for (size_t c = 0; c < N_CONTENTS; c++) {
		const struct content *ct = &contents[c];
		write_file(path, ct->data, ct->len);
		for (size_t k = 0; k < N_CHUNKS; k++)
			for (int io = INPUT_IO_AUTO; io <= INPUT_IO_READ; io++)
				for (size_t keep = 0; keep <= 2; keep += 2) {
					char what[160];
					snprintf(what, sizeof what, "%s chunk %zu io %d keep %zu",
						 ct->name, chunks[k], io, keep);
					struct input_options o = { .io = (enum input_io)io, .read_chunk = chunks[k], .eol = ct->eol, .keep_lines = keep };
					struct input in;
					if (input_open(&in, path, &o) != 0) {
						CHECK(0, "%s: open: %s", what, strerror(errno));
						continue;
					}
					bool want_map = ct->len > 0 && io == INPUT_IO_MMAP;
					CHECK(in.mapped == want_map, "%s: mapped %d", what, in.mapped);
					CHECK(in.owns_fd, "%s: owns_fd", what);
					long n = drain_and_check(&in, ct->data, ct->len, ct->eol, keep, what);
					/* the mapping whole, but an unfinished last line
					 * after complete ones is a window of its own */
					long mapped_windows = 1 + (ct->len > 0 && memchr(ct->data, ct->eol, ct->len) &&
								  ct->data[ct->len - 1] != ct->eol);
					if (want_map)
						CHECK(n == mapped_windows, "%s: %ld windows when mapped", what, n);
					if (ct->len == 0)
						CHECK(n == 0, "%s: empty input gave %ld windows", what, n);
					input_close(&in);
					input_close(&in); /* idempotent */
				}
	}
}

/* Pseudo-random lines (lengths 0..300, some bytes NUL). */
static char *random_text(size_t len, unsigned seed)
{
	char *s = malloc(len);
	unsigned x = seed;
	size_t left = 0;
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		if (left == 0) {
			s[i] = '\n';
			left = (x >> 8) % 300;
		} else {
			s[i] = (x >> 20) % 53 == 0 ? '\0' : (char)('a' + (x >> 16) % 26);
			left--;
		}
	}
	return s;
}

static void random_cases(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/random", tmpdir);
	size_t big = 200 * 1024 + 17, small = 20 * 1024 + 17;
	char *text = random_text(big, 7);
	for (size_t k = 0; k < N_CHUNKS; k++) {
		/* Tiny chunks cost a system call per byte: a smaller input. */
		size_t len = chunks[k] && chunks[k] < 64 ? small : big;
		write_file(path, text, len);
		for (int io = INPUT_IO_AUTO; io <= INPUT_IO_READ; io++)
			for (size_t keep = 0; keep <= 5; keep += 5) {
				for (int z = 0; z < 2; z++) {
					char eol = z ? '\0' : '\n';
					char what[120];
					snprintf(what, sizeof what, "random chunk %zu io %d keep %zu eol %d",
						 chunks[k], io, keep, eol);
					struct input_options o = { .io = (enum input_io)io, .read_chunk = chunks[k], .eol = eol, .keep_lines = keep };
					struct input in;
					CHECK(input_open(&in, path, &o) == 0, "%s: open", what);
					drain_and_check(&in, text, len, eol, keep, what);
					input_close(&in);
				}
			}
	}
	free(text);
}

static void long_line(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/long", tmpdir);
	size_t len = 10u * 1024 * 1024;
	char *text = malloc(len + 1);
	memset(text, 'q', len);
	text[len] = '\n';
	static const size_t big_chunks[] = { 4096, 0 };
	for (int nl = 0; nl < 2; nl++) {
		write_file(path, text, len + (size_t)nl);
		for (size_t k = 0; k < 2; k++)
			for (int io = INPUT_IO_MMAP; io <= INPUT_IO_READ; io++) {
				char what[120];
				snprintf(what, sizeof what, "10 MB line nl %d chunk %zu io %d", nl, big_chunks[k], io);
				struct input_options o = { .io = (enum input_io)io, .read_chunk = big_chunks[k], .eol = '\n', .keep_lines = 1 };
				struct input in;
				CHECK(input_open(&in, path, &o) == 0, "%s: open", what);
				long n = drain_and_check(&in, text, len + (size_t)nl, '\n', 1, what);
				CHECK(n == 1, "%s: %ld windows", what, n);
				if (io == INPUT_IO_READ)
					CHECK(in.cap < 4 * (len + 1), "%s: buffer grew to %zu", what, in.cap);
				input_close(&in);
			}
	}
	free(text);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* Runs `fn` with `fd` as standard input, restoring it afterwards. */
static void with_stdin(int fd, void (*fn)(void *), void *arg)
{
	int saved = dup(STDIN_FILENO);
	dup2(fd, STDIN_FILENO);
	fn(arg);
	dup2(saved, STDIN_FILENO);
	close(saved);
}

/* input_auto_maps: nothing is mapped at open, whatever its kind and size. */
static void policy_table(void)
{
	static const struct {
		mode_t mode;
		const char *kind;
	} kinds[] = {
		{ .mode = S_IFREG, .kind = "regular" },
		{ .mode = S_IFIFO, .kind = "fifo" },
		{ .mode = S_IFCHR, .kind = "char device" },
		{ .mode = S_IFBLK, .kind = "block device" },
		{ .mode = S_IFSOCK, .kind = "socket" },
	};
	static const uint64_t sizes[] = { 0, 1, 4096, 1u << 20, 4u << 20, 32u << 20,
					  256u << 20, (uint64_t)1 << 40 };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
			CHECK(!input_auto_maps(kinds[k].mode | 0644, sizes[z]),
			      "policy: %s of %llu bytes mapped at open", kinds[k].kind,
			      (unsigned long long)sizes[z]);
	/* A 4 MiB file of short lines: AUTO reads it to the end. */
	char path[256];
	snprintf(path, sizeof path, "%s/policy", tmpdir);
	size_t len = 4u << 20;
	char *text = random_text(len, 11);
	write_file(path, text, len);
	struct input in;
	CHECK(input_open(&in, path, NULL) == 0, "policy: open");
	CHECK(!in.mapped, "policy: 4 MiB file mapped at open");
	drain_and_check(&in, text, len, '\n', 0, "policy: 4 MiB auto");
	CHECK(!in.mapped, "policy: 4 MiB file of short lines switched to mmap");
	input_close(&in);
	free(text);
}

struct switch_case {
	const char *text;
	size_t len, skip, chunk, keep;
	enum input_io io;
};

/* Drains standard input (a regular file at offset sc->skip). */
static void switch_reader(void *arg)
{
	struct switch_case *sc = arg;
	char what[120];
	snprintf(what, sizeof what, "long line stdin at %zu io %d chunk %zu keep %zu", sc->skip,
		 sc->io, sc->chunk, sc->keep);
	struct input_options o = { .io = sc->io, .read_chunk = sc->chunk, .eol = '\n', .keep_lines = sc->keep };
	struct input in;
	CHECK(input_open(&in, NULL, &o) == 0, "%s: open", what);
	drain_and_check(&in, sc->text + sc->skip, sc->len - sc->skip, '\n', sc->keep, what);
	CHECK(drained_mapped == (sc->io != INPUT_IO_READ), "%s: mapped %d", what, drained_mapped);
	/* an unchanged file's unfinished last line comes from the mapping */
	bool tail_mapped = sc->io != INPUT_IO_READ && sc->text[sc->len - 1] != '\n';
	CHECK(in.mapped == tail_mapped, "%s: mapped at the end %d", what, in.mapped);
	input_close(&in);
	CHECK(lseek(STDIN_FILENO, 0, SEEK_CUR) == (off_t)sc->len, "%s: stdin left at %lld", what,
	      (long long)lseek(STDIN_FILENO, 0, SEEK_CUR));
}

/* Short lines, one line of 3 * INPUT_LONG_LINE bytes, short lines: AUTO
 * reads, then maps from the long line on; every path gives the same bytes,
 * offsets and kept lines.  Also as a partly consumed stdin (offsets, and
 * where stdin is left), and input_head_has_nul after the switch. */
static void long_line_switch(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/switch", tmpdir);
	size_t head = 300 * 1024 + 5, longl = 3 * INPUT_LONG_LINE, tail = 50 * 1024;
	size_t len = head + longl + 1 + tail;
	char *text = random_text(len, 5);
	for (size_t i = 0; i < head + longl + 1 + tail; i++)
		if (text[i] == '\0')
			text[i] = 'n';
	text[5] = '\0'; /* a NUL in the first buffer */
	memset(text + head, 'L', longl);
	text[head - 1] = '\n';
	text[head + longl] = '\n';
	write_file(path, text, len);
	static const size_t sw_chunks[] = { 4096, 7, 0 };
	for (size_t k = 0; k < 3; k++)
		for (int io = INPUT_IO_AUTO; io <= INPUT_IO_READ; io++)
			for (size_t keep = 0; keep <= 3; keep += 3) {
				char what[120];
				snprintf(what, sizeof what, "long line chunk %zu io %d keep %zu", sw_chunks[k], io, keep);
				/* Tiny chunks: one system call per 7 bytes; only the AUTO path. */
				if (sw_chunks[k] == 7 && io != INPUT_IO_AUTO)
					continue;
				struct input_options o = { .io = (enum input_io)io, .read_chunk = sw_chunks[k], .eol = '\n', .keep_lines = keep };
				struct input in;
				CHECK(input_open(&in, path, &o) == 0, "%s: open", what);
				CHECK(in.mapped == (io == INPUT_IO_MMAP), "%s: mapped at open %d", what, in.mapped);
				long n = drain_and_check(&in, text, len, '\n', keep, what);
				CHECK(drained_mapped == (io != INPUT_IO_READ), "%s: mapped %d", what, drained_mapped);
				/* mapped to the end of an unchanged file's unfinished last line */
				bool tail_mapped = io != INPUT_IO_READ && text[len - 1] != '\n';
				CHECK(in.mapped == tail_mapped, "%s: mapped at the end %d", what, in.mapped);
				if (io == INPUT_IO_AUTO) {
					CHECK(n >= 2, "%s: %ld windows", what, n);
					CHECK(in.map_offset > 0 && in.map_offset <= head, "%s: mapped from %llu", what,
					      (unsigned long long)in.map_offset);
				}
				CHECK(input_head_has_nul(&in, 100), "%s: NUL at 5 not seen", what);
				CHECK(!input_head_has_nul(&in, 5), "%s: NUL seen in 5 bytes", what);
				input_close(&in);
			}
	static const size_t skips[] = { 0, 5000, 300 * 1024 };
	for (size_t s = 0; s < 3; s++)
		for (int io = INPUT_IO_AUTO; io <= INPUT_IO_READ; io++) {
			int fd = open(path, O_RDONLY);
			lseek(fd, (off_t)skips[s], SEEK_SET);
			struct switch_case sc = {
				.text = text, .len = len, .skip = skips[s], .chunk = 0, .keep = 2,
				.io = (enum input_io)io,
			};
			with_stdin(fd, switch_reader, &sc);
			close(fd);
		}
	free(text);
}

/* The read() buffer: page-aligned, the carried bytes within its first
 * page, and a closed input's buffer serves the next input. */
static void buffer_reuse(void)
{
	char a[256], b[256];
	snprintf(a, sizeof a, "%s/reuse-a", tmpdir);
	snprintf(b, sizeof b, "%s/reuse-b", tmpdir);
	size_t len = 600 * 1024 + 11;
	char *text = random_text(len, 21);
	write_file(a, text, len);
	write_file(b, text + 1, len - 1);
	struct input_options o = { .io = INPUT_IO_READ, .read_chunk = 0, .eol = '\n', .keep_lines = 1 };
	struct input in;
	struct window w;
	CHECK(input_open(&in, a, &o) == 0, "reuse: open a");
	int windows = 0;
	while (input_next(&in, &w) == 1) {
		windows++;
		CHECK((uintptr_t)in.mem % 4096 == 0, "reuse: buffer not page-aligned");
		/* The kept line sits at buf, less than a page into the allocation. */
		CHECK(w.data - w.before == in.buf && in.buf >= in.mem && in.buf - in.mem < 4096,
		      "reuse: kept data at mem + %td", in.buf - in.mem);
	}
	CHECK(windows > 2, "reuse: %d windows", windows);
	const char *mem = in.mem;
	size_t cap = in.mem_cap;
	input_close(&in);
	CHECK(input_open(&in, b, &o) == 0, "reuse: open b");
	CHECK(input_next(&in, &w) == 1, "reuse: first window of b");
	CHECK(in.mem == mem && in.mem_cap == cap, "reuse: b got a new buffer");
	input_close(&in);
	CHECK(input_open(&in, b, &o) == 0, "reuse: reopen b");
	drain_and_check(&in, text + 1, len - 1, '\n', 1, "reuse: b with a's buffer");
	input_close(&in);
	free(text);
}

struct pipe_case {
	const char *text;
	size_t len;
	size_t chunk;
	char what[80];
};

static void pipe_reader(void *arg)
{
	struct pipe_case *pc = arg;
	struct input_options o = { .io = INPUT_IO_AUTO, .read_chunk = pc->chunk, .eol = '\n', .keep_lines = 1 };
	struct input in;
	CHECK(input_open(&in, "-", &o) == 0, "%s: open stdin", pc->what);
	CHECK(!in.mapped && !in.owns_fd && !in.is_regular, "%s: pipe flags", pc->what);
	drain_and_check(&in, pc->text, pc->len, '\n', 1, pc->what);
	input_close(&in);
}

/* A child writes `text` in uneven pieces with pauses while an interval
 * timer interrupts the parent's read() (no SA_RESTART) to exercise EINTR. */
static void pipe_cases(void)
{
	size_t len = 64 * 1024 + 3;
	char *text = random_text(len, 99);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	static const size_t pchunks[] = { 1, 7, 0 };
	for (size_t k = 0; k < 3; k++) {
		int p[2];
		if (pipe(p) != 0) {
			perror("pipe");
			exit(2);
		}
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			size_t off = 0, piece = 1;
			while (off < len) {
				size_t n = piece < len - off ? piece : len - off;
				if (write(p[1], text + off, n) != (ssize_t)n)
					_exit(1);
				off += n;
				piece = piece * 3 % 9001 + 1;
				if (piece % 5 == 0)
					usleep(2000);
			}
			_exit(0);
		}
		close(p[1]);
		struct itimerval it = {
			.it_interval = { .tv_sec = 0, .tv_usec = 500 },
			.it_value = { .tv_sec = 0, .tv_usec = 500 },
		};
		setitimer(ITIMER_REAL, &it, NULL);
		struct pipe_case pc = { .text = text, .len = len, .chunk = pchunks[k], .what = "" };
		snprintf(pc.what, sizeof pc.what, "pipe chunk %zu", pchunks[k]);
		with_stdin(p[0], pipe_reader, &pc);
		struct itimerval off = { .it_interval = { .tv_sec = 0 }, .it_value = { .tv_sec = 0 } };
		setitimer(ITIMER_REAL, &off, NULL);
		close(p[0]);
		int status;
		waitpid(pid, &status, 0);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "pipe writer failed");
	}
	sigaction(SIGALRM, &old, NULL);
	free(text);
}

struct stdin_case {
	const char *text;
	size_t len, skip;
	enum input_io io;
};

static void stdin_reader(void *arg)
{
	struct stdin_case *sc = arg;
	char what[80];
	snprintf(what, sizeof what, "stdin file at %zu io %d", sc->skip, sc->io);
	struct input_options o = { .io = sc->io, .read_chunk = 0, .eol = '\n', .keep_lines = 0 };
	struct input in;
	CHECK(input_open(&in, NULL, &o) == 0, "%s: open", what);
	bool want_map = sc->io == INPUT_IO_MMAP;
	CHECK(in.mapped == want_map, "%s: mapped %d", what, in.mapped);
	CHECK(in.start == sc->skip, "%s: start %llu", what, (unsigned long long)in.start);
	drain_and_check(&in, sc->text + sc->skip, sc->len - sc->skip, '\n', 0, what);
	input_close(&in);
	CHECK(lseek(STDIN_FILENO, 0, SEEK_CUR) == (off_t)sc->len,
	      "%s: stdin left at %lld", what, (long long)lseek(STDIN_FILENO, 0, SEEK_CUR));
}

/* `acgrep x < file` after something read part of the file: reading starts
 * at the current offset (also mapped, past a page boundary), offsets count
 * from there, and stdin is left at the end. */
static void stdin_file_cases(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/stdin", tmpdir);
	size_t len = 3 * 4096 + 100;
	char *text = random_text(len, 3);
	write_file(path, text, len);
	static const size_t skips[] = { 0, 2, 5000 };
	for (size_t s = 0; s < 3; s++)
		for (int io = INPUT_IO_AUTO; io <= INPUT_IO_READ; io++) {
			int fd = open(path, O_RDONLY);
			lseek(fd, (off_t)skips[s], SEEK_SET);
			struct stdin_case sc = { .text = text, .len = len, .skip = skips[s], .io = (enum input_io)io };
			with_stdin(fd, stdin_reader, &sc);
			close(fd);
		}
	free(text);
}

static void error_cases(void)
{
	struct input in;
	char path[256];
	errno = 0;
	CHECK(input_open(&in, "/nonexistent/acgrep", NULL) == -1 && errno == ENOENT,
	      "missing file: errno %d", errno);
	input_close(&in);
	errno = 0;
	CHECK(input_open(&in, tmpdir, NULL) == -1 && errno == EISDIR, "directory: errno %d", errno);
	int dfd = open(tmpdir, O_RDONLY | O_DIRECTORY);
	int saved = dup(STDIN_FILENO);
	dup2(dfd, STDIN_FILENO);
	errno = 0;
	CHECK(input_open(&in, "-", NULL) == -1 && errno == EISDIR, "stdin directory: errno %d", errno);
	dup2(saved, STDIN_FILENO);
	close(saved);
	CHECK(fcntl(STDIN_FILENO, F_GETFD) != -1, "stdin closed by a failed open");

	/* A read error surfaces as -1 with errno: swap a directory in. */
	snprintf(path, sizeof path, "%s/err", tmpdir);
	write_file(path, "abc\n", 4);
	struct input_options o = { .io = INPUT_IO_READ, .read_chunk = 0, .eol = '\n', .keep_lines = 0 };
	CHECK(input_open(&in, path, &o) == 0, "read-error file: open");
	dup2(dfd, in.fd);
	struct window w;
	errno = 0;
	CHECK(input_next(&in, &w) == -1 && errno == EISDIR, "read error: errno %d", errno);
	input_close(&in);
	close(dfd);

	/* /dev/null: a character device, read(), empty. */
	o.io = INPUT_IO_MMAP;
	CHECK(input_open(&in, "/dev/null", &o) == 0, "/dev/null: open");
	CHECK(!in.mapped && !in.is_regular, "/dev/null: not mapped");
	CHECK(input_next(&in, &w) == 0, "/dev/null: no window");
	input_close(&in);
}

/* plain_regular: a file shorter than a read needs no fstat (its size is
 * the read's, its identity asked when needed); a longer one is fstat'ed
 * after its first read; a directory fails as without it. */
static void plain_cases(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/plain", tmpdir);
	size_t big = 300000;
	char *text = random_text(big, 7);
	const size_t sizes[] = { 0, 5, 4095, big };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (size_t keep = 0; keep <= 2; keep += 2) {
			char what[80];
			snprintf(what, sizeof what, "plain %zu bytes keep %zu", sizes[i], keep);
			write_file(path, text, sizes[i]);
			struct input_options o = { .eol = '\n', .keep_lines = keep, .plain_regular = true };
			struct input in;
			if (input_open(&in, path, &o) != 0) {
				CHECK(0, "%s: open: %s", what, strerror(errno));
				continue;
			}
			CHECK(in.is_regular && in.size_at_open == sizes[i], "%s: size %llu", what,
			      (unsigned long long)in.size_at_open);
			CHECK(in.identified == (sizes[i] >= INPUT_GREP_BUFFER), "%s: identified", what);
			int fd = open(path, O_WRONLY | O_APPEND);
			CHECK(input_same_file(&in, fd), "%s: same file not detected", what);
			close(fd);
			drain_and_check(&in, text, sizes[i], '\n', keep, what);
			input_close(&in);
		}
	free(text);
	struct input in;
	struct input_options o = { .eol = '\n', .plain_regular = true };
	errno = 0;
	CHECK(input_open(&in, tmpdir, &o) == -1 && errno == EISDIR, "plain directory: errno %d", errno);
}

static void pipe_same(void *arg)
{
	struct input in;
	CHECK(input_open(&in, "-", NULL) == 0, "same: open pipe stdin");
	CHECK(!input_same_file(&in, *(int *)arg), "pipe input taken as same");
	CHECK(!input_same_file(&in, STDIN_FILENO), "pipe stdin taken as same as itself");
	input_close(&in);
}

static void same_file_cases(void)
{
	char a[256], b[256];
	snprintf(a, sizeof a, "%s/same-a", tmpdir);
	snprintf(b, sizeof b, "%s/same-b", tmpdir);
	write_file(a, "x\n", 2);
	write_file(b, "x\n", 2);
	struct input in;
	CHECK(input_open(&in, a, NULL) == 0, "same: open");
	int fa = open(a, O_WRONLY | O_APPEND), fb = open(b, O_WRONLY | O_APPEND);
	int p[2];
	if (pipe(p) != 0)
		exit(2);
	CHECK(input_same_file(&in, fa), "same file not detected");
	CHECK(!input_same_file(&in, fb), "other file taken as same");
	CHECK(!input_same_file(&in, p[1]), "pipe taken as same");
	CHECK(!input_same_file(&in, -1), "fd -1 taken as same");
	close(fa);
	close(fb);
	input_close(&in);
	/* A pipe input is never "the same file", even as itself. */
	with_stdin(p[0], pipe_same, &p[0]);
	close(p[0]);
	close(p[1]);
}

static void sigbus_case(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/shrink", tmpdir);
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * 3;
	char *text = malloc(len);
	memset(text, 's', len);
	text[len - 1] = '\n'; /* a complete line: handed out from the mapping */
	write_file(path, text, len);
	free(text);

	input_guard_install();
	struct input_options o = { .io = INPUT_IO_MMAP, .read_chunk = 0, .eol = '\n', .keep_lines = 0 };
	struct input in;
	struct window w;
	CHECK(input_open(&in, path, &o) == 0 && in.mapped, "sigbus: open mapped");
	CHECK(input_next(&in, &w) == 1 && w.len == len, "sigbus: window");

	static sigjmp_buf jb;
	static volatile int jumped;
	static volatile char sink;
	jumped = 0;
	/* Armed, in bounds: no jump. */
	if (sigsetjmp(jb, 1) == 0) {
		input_guard_arm(&jb);
		sink = w.data[len - 1];
		input_guard_disarm();
	} else {
		jumped = 1;
	}
	CHECK(!jumped, "sigbus: jump without a fault");

	int fd = open(path, O_WRONLY);
	CHECK(fd >= 0 && ftruncate(fd, 0) == 0, "sigbus: truncate");
	close(fd);
	if (sigsetjmp(jb, 1) == 0) {
		input_guard_arm(&jb);
		sink = w.data[(size_t)page * 2 + 1];
		input_guard_disarm();
	} else {
		input_guard_disarm();
		jumped = 1;
	}
	(void)sink;
	CHECK(jumped, "sigbus: no longjmp after touching a truncated mapping");

	/* The guard is reusable. */
	jumped = 0;
	if (sigsetjmp(jb, 1) == 0) {
		input_guard_arm(&jb);
		sink = w.data[(size_t)page + 5];
		input_guard_disarm();
	} else {
		input_guard_disarm();
		jumped = 1;
	}
	CHECK(jumped, "sigbus: second fault not caught");
	input_close(&in);

	/* Unarmed: SIGBUS kills with the default action (checked in a child). */
	pid_t pid = fork();
	if (pid == 0) {
		raise(SIGBUS);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS, "sigbus: unarmed not fatal");
}

static void cleanup(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", tmpdir);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	file_cases();
	random_cases();
	long_line();
	policy_table();
	long_line_switch();
	buffer_reuse();
	pipe_cases();
	stdin_file_cases();
	error_cases();
	same_file_cases();
	plain_cases();
	sigbus_case();
	cleanup();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
