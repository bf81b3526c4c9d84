/* SPDX-License-Identifier: MIT */
/* test_input_change.c - input.c on files that change while they are read.
 *
 * A file appended to between two windows is read to its new end through
 * read(), a mapping (its unfinished last line joined with the appended
 * bytes) and a range opened to INPUT_TO_END; a range still ends at its
 * limit.  input_reread_from leaves a mapping for read() at a line start,
 * with the kept lines read back, also after the file was truncated (to the
 * new end, or to nothing past that line).  An unchanged file's unfinished
 * last line is handed out from the mapping.  Every case on several read
 * sizes and with and without kept lines.  input_read_guarded takes a
 * reader that faults on a truncated mapping back to where it said it was
 * done (input_done_to: its undo log's pieces and keepers) and runs it
 * again on read(), or reports the way back closed.
 */
#include "input/input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static char tmpdir[] = "/tmp/acgrep-test-change-XXXXXX";
static char path[300];

static const size_t chunks[] = { 1, 7, 4096, 0 };
#define N_CHUNKS (sizeof chunks / sizeof chunks[0])

static void put_file(const char *data, size_t len, const char *mode)
{
	FILE *f = fopen(path, mode);
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* Lines of 1 to 90 letters, the text ending inside a line. */
static char *lines_text(size_t len, unsigned seed)
{
	char *s = malloc(len);
	unsigned x = seed;
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		s[i] = (x >> 16) % 40 == 0 ? '\n' : (char)('a' + (x >> 20) % 26);
	}
	s[len - 1] = 'z';
	return s;
}

/* Start of the `keep` complete lines before `off` in text. */
static size_t kept_start(const char *text, size_t off, size_t keep)
{
	size_t pos = off;
	for (size_t k = 0; k < keep && pos > 0; k++) {
		size_t q = pos - 1;
		while (q > 0 && text[q - 1] != '\n')
			q--;
		pos = q;
	}
	return pos;
}

/* Reads `in` to its end from input offset `from`: the windows must be
 * text[from..len) in order, of whole lines, with the kept lines before
 * them.  Returns the number of windows. */
static long drain_from(struct input *in, const char *text, size_t from, size_t len, size_t keep,
		       const char *what)
{
	struct window w;
	size_t got = from;
	long n = 0;
	int r;
	while ((r = input_next(in, &w)) == 1) {
		n++;
		CHECK(w.offset == got, "%s: window at %llu, want %zu", what, (unsigned long long)w.offset, got);
		if (w.offset != got || got + w.len > len) {
			CHECK(0, "%s: windows past the text", what);
			return n;
		}
		CHECK(memcmp(w.data, text + got, w.len) == 0, "%s: bytes differ at %zu", what, got);
		CHECK(got + w.len == len || w.data[w.len - 1] == '\n', "%s: split line at %zu", what,
		      got + w.len);
		size_t eb = got - kept_start(text, got, keep);
		CHECK(w.before == eb, "%s: %zu kept, want %zu at %zu", what, w.before, eb, got);
		CHECK(memcmp(w.data - w.before, text + got - w.before, w.before) == 0,
		      "%s: kept lines differ at %zu", what, got);
		got += w.len;
	}
	CHECK(r == 0, "%s: input_next %d (%s)", what, r, strerror(errno));
	CHECK(got == len, "%s: read to %zu, want %zu", what, got, len);
	return n;
}

/* First window of a fresh input, then `len2 - len1` bytes appended: every
 * path reads on to the new end, joining the line left unfinished.  The
 * first read() is a full one: one that comes back short at the size at
 * open ends the input (input.c, next_read). */
static void appended(void)
{
	size_t len1 = 150000, len2 = 250000;
	char *text = lines_text(len2, 7);
	for (size_t k = 0; k < N_CHUNKS; k++)
		for (int io = INPUT_IO_AUTO; io <= INPUT_IO_READ; io++)
			for (size_t keep = 0; keep <= 2; keep += 2) {
				char what[100];
				snprintf(what, sizeof what, "append chunk %zu io %d keep %zu", chunks[k], io, keep);
				put_file(text, len1, "wb");
				struct input_options o = { .io = (enum input_io)io, .read_chunk = chunks[k], .eol = '\n', .keep_lines = keep };
				struct input in;
				struct window w;
				CHECK(input_open(&in, path, &o) == 0, "%s: open", what);
				CHECK(input_next(&in, &w) == 1 && w.offset == 0 &&
					      memcmp(w.data, text, w.len) == 0,
				      "%s: first window", what);
				put_file(text + len1, len2 - len1, "ab");
				drain_from(&in, text, w.offset + w.len, len2, keep, what);
				input_close(&in);
			}
	/* a range to the end reads on; one with a limit stops there */
	put_file(text, len1, "wb");
	struct input whole, in;
	struct input_options o = { .io = INPUT_IO_READ, .read_chunk = 0, .eol = '\n', .keep_lines = 0 };
	CHECK(input_open(&whole, path, &o) == 0, "range: open");
	size_t lo = (size_t)((const char *)memchr(text + 1000, '\n', len1 - 1000) - text) + 1;
	size_t hi = (size_t)((const char *)memrchr(text, '\n', len1) - text) + 1;
	put_file(text + len1, len2 - len1, "ab");
	CHECK(input_open_range(&in, &whole, lo, INPUT_TO_END, &o) == 0, "range to the end: open");
	drain_from(&in, text, lo, len2, 0, "range to the end");
	input_close(&in);
	CHECK(input_open_range(&in, &whole, lo, hi, &o) == 0, "range to a limit: open");
	drain_from(&in, text, lo, hi, 0, "range to a limit");
	input_close(&in);
	input_close(&whole);
	free(text);
}

/* A mapped input left for read() at a line start: at once, after the file
 * was truncated inside a later line (read() ends there), and truncated
 * before that line (nothing follows). */
static void reread(void)
{
	size_t len = 100000;
	char *text = lines_text(len, 11);
	size_t at = (size_t)((const char *)memchr(text + 35000, '\n', len - 35000) - text) + 1;
	size_t cut = (size_t)((const char *)memchr(text + 75000, '\n', len - 75000) - text) + 5;
	static const struct {
		const char *name;
		size_t size; /* the file's size when read on; 0: not truncated */
	} cases[] = {
		{ .name = "whole", .size = 0 },
		{ .name = "truncated", .size = 1 },
		{ .name = "to nothing", .size = 2 },
	};
	for (size_t c = 0; c < 3; c++)
		for (size_t k = 0; k < N_CHUNKS; k++)
			for (size_t keep = 0; keep <= 3; keep += 3) {
				char what[100];
				snprintf(what, sizeof what, "reread %s chunk %zu keep %zu", cases[c].name, chunks[k],
					 keep);
				put_file(text, len, "wb");
				struct input_options o = { .io = INPUT_IO_MMAP, .read_chunk = chunks[k], .eol = '\n', .keep_lines = keep };
				struct input in;
				struct window w;
				CHECK(input_open(&in, path, &o) == 0 && in.mapped, "%s: open mapped", what);
				CHECK(input_next(&in, &w) == 1 && in.mapped, "%s: mapped window", what);
				size_t end = cases[c].size == 0 ? len : cases[c].size == 1 ? cut : 0;
				if (cases[c].size != 0 && truncate(path, (off_t)end) != 0)
					CHECK(0, "%s: truncate: %s", what, strerror(errno));
				CHECK(input_reread_from(&in, at) == 0 && !in.mapped, "%s: reread", what);
				if (end > at) {
					drain_from(&in, text, at, end, keep, what);
				} else {
					CHECK(input_next(&in, &w) == 0, "%s: a window past the end", what);
				}
				CHECK(input_reread_from(&in, at) != 0 && errno == EINVAL, "%s: reread unmapped", what);
				input_close(&in);
			}
	free(text);
}

/* A file that ends inside a line, unchanged: that line is the last window
 * and comes from the mapping (no read() of it again into a buffer grown to
 * its size), after an --mmap input's complete lines and after AUTO's
 * switch at a long line (one 1 MB line of "x", no newline). */
static void unfinished_tail(void)
{
	size_t lines_len = 100000, long_len = (size_t)1 << 20;
	char *lines = lines_text(lines_len, 5), *one_line = malloc(long_len);
	memset(one_line, 'x', long_len);
	static const struct {
		const char *name;
		enum input_io io;
		bool long_line;
	} cases[] = {
		{ .name = "--mmap, lines", .io = INPUT_IO_MMAP, .long_line = false },
		{ .name = "--mmap, one line", .io = INPUT_IO_MMAP, .long_line = true },
		{ .name = "auto, one line", .io = INPUT_IO_AUTO, .long_line = true },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
		for (size_t keep = 0; keep <= 2; keep += 2) {
			char what[100];
			snprintf(what, sizeof what, "unfinished tail %s keep %zu", cases[c].name, keep);
			const char *text = cases[c].long_line ? one_line : lines;
			size_t len = cases[c].long_line ? long_len : lines_len;
			put_file(text, len, "wb");
			struct input_options o = { .io = cases[c].io, .eol = '\n', .keep_lines = keep };
			struct input in;
			CHECK(input_open(&in, path, &o) == 0, "%s: open", what);
			drain_from(&in, text, 0, len, keep, what);
			CHECK(in.mapped, "%s: the last line was read() again", what);
			input_close(&in);
		}
	free(one_line);
	free(lines);
}

/* input_read_guarded's reader: the first run takes the mapped window,
 * is done with its first line (its state 1 there, 2 after), truncates the
 * file there and touches the window's last byte (a page past the new end:
 * SIGBUS); a run after the way back drains the input from that line's
 * end. */
struct guarded_read {
	struct input *in;
	struct input_undo undo;
	const char *text;
	size_t at;            /* where it is done: just past the first line */
	int runs, backs, saves, releases;
	uint64_t saved_at;    /* the keeper's last save */
	bool refuse;          /* the keeper refuses (output handed on already) */
	long drained;
	int state;            /* the reader's state the undo log copies */
	int state_at_back;    /* ... as the keeper's restore found it */
};

static void guarded_save(void *ctx, uint64_t at)
{
	struct guarded_read *g = ctx;
	g->saves++;
	g->saved_at = at;
}

static bool guarded_restore(void *ctx)
{
	struct guarded_read *g = ctx;
	g->backs++;
	g->state_at_back = g->state;
	return !g->refuse;
}

static void guarded_release(void *ctx)
{
	((struct guarded_read *)ctx)->releases++;
}

static void guarded_reader(void *ctx)
{
	struct guarded_read *g = ctx;
	if (g->runs++ > 0) {
		g->drained = drain_from(g->in, g->text, g->at, g->at, 0, "guarded: read on");
		return;
	}
	struct window w;
	if (input_next(g->in, &w) != 1 || !g->in->mapped || w.len < 3 * 4096) {
		CHECK(0, "guarded: a mapped window of 3 pages");
		return;
	}
	g->state = 1;
	input_done_to(g->in, g->at);
	CHECK(g->saved_at == g->at, "guarded: saved at %llu", (unsigned long long)g->saved_at);
	g->state = 2;
	if (truncate(path, (off_t)g->at) != 0)
		CHECK(0, "guarded: truncate: %s", strerror(errno));
	/* no SIGBUS: the reader ends after one run (guarded's checks say so) */
	volatile char last = w.data[w.len - 1];
	(void)last;
}

static void guarded(void)
{
	size_t len = 100000;
	char *text = lines_text(len, 13);
	for (int refuse = 0; refuse <= 1; refuse++) {
		put_file(text, len, "wb");
		struct input_options o = { .io = INPUT_IO_MMAP, .eol = '\n' };
		struct input in;
		CHECK(input_open(&in, path, &o) == 0 && in.mapped, "guarded: open mapped");
		struct guarded_read g = {
			.in = &in,
			.text = text,
			.at = (size_t)((const char *)memchr(text, '\n', len) - text) + 1,
			.refuse = refuse,
		};
		input_undo_keeps(&g.undo, &g.state, sizeof g.state);
		input_undo_calls(&g.undo, (struct input_keeper){
			.save = guarded_save, .restore = guarded_restore, .release = guarded_release, .ctx = &g,
		});
		bool whole = input_read_guarded(&in, &g.undo, guarded_reader, &g);
		/* where it stood, before the window, where it was done; and read
		 * on: before each window and at the end */
		CHECK(g.saves >= 3, "guarded refuse %d: %d saves", refuse, g.saves);
		CHECK(g.releases >= 1 && !in.undo && !in.undo_armed, "guarded refuse %d: released", refuse);
		CHECK(whole == !refuse, "guarded refuse %d: returned %d", refuse, whole);
		CHECK(g.backs == 1, "guarded refuse %d: back called %d times", refuse, g.backs);
		CHECK(g.runs == 2 - refuse, "guarded refuse %d: reader ran %d times", refuse, g.runs);
		CHECK(refuse || !in.mapped, "guarded: read on with read()");
		CHECK(g.state_at_back == 1, "guarded refuse %d: state %d back where it was done", refuse,
		      g.state_at_back);
		CHECK(g.state == (refuse ? 2 : 1), "guarded refuse %d: state %d after", refuse, g.state);
		input_close(&in);
	}
	free(text);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(path, sizeof path, "%s/file", tmpdir);
	appended();
	reread();
	unfinished_tail();
	input_guard_install();
	guarded();
	unlink(path);
	rmdir(tmpdir);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
