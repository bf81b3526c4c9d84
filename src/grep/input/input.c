/* SPDX-License-Identifier: MIT */
/* input.c - the bytes of one input, handed out a window of whole lines at a
 * time.
 *
 * Owns: opening and fstat'ing an input (a whole one, or a range of a
 * file), choosing mmap or read() (read() by default, switching a regular
 * file to mmap at a long line; docs/perf.md "I/O policy"), the mapped
 * windows (whole lines, or the read() path's geometry when asked), the
 * file offset of a shared standard input, and leaving a mapping for read()
 * at a line start (after its complete lines, or after a SIGBUS), with the
 * lines a before-context needs read back.  The read() path is
 * input_read.c's, NUL bytes input_nul.c's, the SIGBUS guard input_guard.c's.
 * Refuses to know: patterns, matching, output, messages.  Errors are errno
 * values for the caller to print; nothing here writes to stdout or stderr.
 */
#include "decompress/decompress.h"
#include "input_internal.h"
#include "path_open.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_CHUNK INPUT_GREP_BUFFER /* 64-256 KiB all tie (docs/perf.md) */

/* The mapped path's tuning.  scripts/perf/io.sh builds its variants by
 * editing these three lines in a copy of this file; keep them one line each.
 * MAP_FLAGS: extra mmap(2) flags (MAP_POPULATE); MAP_ADVICE: madvise(2)
 * advice for the whole mapping, -1 for none; MAP_WINDOW: 0 hands out the
 * whole mapping as one window, N > 0 windows of about N bytes (whole lines),
 * each one's page tables populated (MADV_POPULATE_READ) before it is used. */
#define MAP_FLAGS 0
#define MAP_ADVICE MADV_SEQUENTIAL
#define MAP_WINDOW ((size_t)0)

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; older kernels say EINVAL, harmless */
#endif

static void input_reset(struct input *in)
{
	memset(in, 0, sizeof *in);
	in->fd = -1;
}

/* Maps the regular file open on in->fd from input offset `from` (file
 * position in->start + from) to its end, `size` (its st_size).  Returns true
 * when mapped; false (nothing changed) when the file should be read()
 * instead: nothing left there, too large for the address space, or mmap
 * refused. */
static bool map_file(struct input *in, uint64_t from, uint64_t size)
{
	if (in->limit && size > in->limit)
		size = in->limit;
	uint64_t at = in->start + from;
	if (size <= at)
		return false;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	uint64_t aligned = at - at % (uint64_t)page;
	uint64_t span = size - aligned;
	if (span > SIZE_MAX || aligned > (uint64_t)INT64_MAX)
		return false;
	void *p = mmap(NULL, (size_t)span, PROT_READ, MAP_PRIVATE | MAP_FLAGS, in->fd, (off_t)aligned);
	if (p == MAP_FAILED)
		return false;
#if MAP_ADVICE >= 0
	(void)madvise(p, (size_t)span, MAP_ADVICE);
#endif
	in->map = p;
	in->map_len = (size_t)span;
	in->map_skip = (size_t)(at - aligned);
	in->map_offset = from;
	in->map_pos = 0;
	in->mapped = true;
	return true;
}

bool input_auto_maps(mode_t mode, uint64_t size)
{
	/* Measured (scripts/perf/io.sh, docs/perf.md "I/O policy"): on regular
	 * files of 1 MiB to 256 MiB, read() in 128 KiB chunks (96 KiB ties) matches the best
	 * mapping up to 8 MiB and beats every mapping variant above (english.txt:
	 * 185 ms CPU against 324-425 ms); below 1 MiB the mapping's setup costs
	 * more (-r over Linux: 13.8 s mapped, 4.1 s read).  Only a long line
	 * maps (input_switch_to_map); pipes, ttys and devices cannot be mapped. */
	(void)mode;
	(void)size;
	return false;
}

/* --decompress: a stream whose first bytes name a compressed format is
 * read through its decoder, as a pipe is (never mapped, no size, no
 * pread); the bytes read from a pipe to see that it is not compressed are
 * the buffer's first; with decode_ahead a compressed regular file is
 * decoded on a thread of its own.  0, or -1 (ENOMEM). */
static int open_compressed(struct input *in, bool decode_ahead)
{
	unsigned char head[DECOMP_MAGIC_MAX];
	size_t n;
	bool seekable = in->is_regular;
	enum decomp_format fmt = decomp_sniff(in->fd, seekable, (off_t)in->start, head, &n);
	if (fmt == DECOMP_NONE) {
		if (seekable || n == 0)
			return 0;
		if (input_reserve(in, in->chunk) != 0)
			return -1;
		memcpy(in->buf, head, n);
		in->len = n;
		return 0;
	}
	in->is_regular = false;
	in->size_at_open = 0;
	if (!decomp_available(fmt)) {
		in->error = decomp_missing(fmt);
		return 0;
	}
	in->decomp = decomp_open(fmt, in->fd, head, seekable ? 0 : n);
	if (in->decomp && seekable && decode_ahead)
		(void)decomp_start_thread(in->decomp);
	return in->decomp ? 0 : -1;
}

/* plain_regular: reads the first chunk into the buffer before any fstat,
 * for input_next to take as its first read.  Returns 0 when that is all
 * the file (a short read: its size is what came), 1 when the fstat is
 * still needed (a full read, or an error left for input_next to meet
 * again), -1 (errno EISDIR) for a directory. */
static int read_first(struct input *in)
{
	if (input_reserve(in, in->chunk) != 0)
		return 1;
	ssize_t n;
	do
		n = read(in->fd, in->buf + in->len, in->chunk);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EISDIR ? -1 : 1;
	in->prefetched = (size_t)n;
	if ((size_t)n == in->chunk)
		return 1;
	in->is_regular = true;
	in->size_at_open = (uint64_t)n;
	in->eof = n == 0;
	return 0;
}

/* The fstat of input_open and what it decides; 0, or -1 (errno). */
static int stat_input(struct input *in, bool is_stdin, const struct input_options *opts)
{
	struct stat st;
	int failed = fstat(in->fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	if (failed) {
		errno = failed;
		return -1;
	}
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	in->identified = true;
	in->is_regular = S_ISREG(st.st_mode);
	in->size_at_open = in->is_regular ? (uint64_t)st.st_size : 0;

	if (in->is_regular && is_stdin) {
		/* A stdin partly consumed by an earlier process starts there. */
		off_t cur = lseek(in->fd, 0, SEEK_CUR);
		in->start = cur > 0 ? (uint64_t)cur : 0;
	}
	in->first_read = in->start;
	if (opts->decompress && open_compressed(in, opts->decode_ahead) != 0) {
		errno = ENOMEM;
		return -1;
	}
	bool map = opts->io == INPUT_IO_MMAP ||
		   (opts->io == INPUT_IO_AUTO && input_auto_maps(st.st_mode, (uint64_t)st.st_size));
	if (map && input_has_hole(in)) /* reading skips the holes; a mapping cannot */
		map = false;
	in->may_switch = opts->io == INPUT_IO_AUTO && in->is_regular;
	if (in->is_regular && map && st.st_size > 0)
		(void)map_file(in, 0, (uint64_t)st.st_size);
	return 0;
}

int input_open(struct input *in, const char *path, const struct input_options *opts)
{
	return input_open_at(in, AT_FDCWD, path, opts);
}

int input_open_at(struct input *in, int dir_fd, const char *path, const struct input_options *opts)
{
	static const struct input_options defaults = { .io = INPUT_IO_AUTO, .eol = '\n' };
	if (!opts)
		opts = &defaults;
	input_reset(in);

	bool is_stdin = path == NULL || strcmp(path, "-") == 0;
	int fd = STDIN_FILENO;
	if (!is_stdin) {
		int flags = O_RDONLY | O_NOCTTY | O_CLOEXEC;
		do
			fd = dir_fd != AT_FDCWD ? openat(dir_fd, path, flags)
			     : opts->any_length ? path_open_long(path, flags) : open(path, flags);
		while (fd < 0 && errno == EINTR);
		if (fd < 0)
			return -1;
	}
	in->fd = fd;
	in->owns_fd = !is_stdin;
	in->eol = opts->eol;
	in->chunk = opts->read_chunk ? opts->read_chunk : DEFAULT_CHUNK;
	in->keep_lines = opts->keep_lines;
	int got = 1;
	if (opts->plain_regular && !is_stdin && !opts->decompress && opts->io != INPUT_IO_MMAP) {
		got = read_first(in);
		in->may_switch = opts->io == INPUT_IO_AUTO;
	}
	if (got < 0 || (got > 0 && stat_input(in, is_stdin, opts) != 0)) {
		int err = errno;
		input_close(in);
		errno = err;
		return -1;
	}
	return 0;
}

/* Where the read() path's window from data[pos] ends (at most at `end`):
 * after the last eol of the first read, ending at a multiple of in->chunk
 * (an input offset), that brings one in. */
static size_t read_window_end(const struct input *in, const char *data, size_t pos, size_t end)
{
	uint64_t at = in->map_offset + pos;
	uint64_t read_end = at - at % in->chunk + in->chunk;
	size_t upto = (size_t)(read_end - in->map_offset);
	if (upto >= end)
		return end;
	const char *p = memrchr(data + pos, in->eol, upto - pos);
	if (!p) { /* a long line: the read that ends it */
		p = memchr(data + upto, in->eol, end - upto);
		if (!p)
			return end;
		uint64_t eol_at = in->map_offset + (uint64_t)(p - data);
		read_end = eol_at - eol_at % in->chunk + in->chunk;
		upto = (size_t)(read_end - in->map_offset);
		if (upto >= end)
			return end;
		p = memrchr(p, in->eol, (size_t)(data + upto - p));
	}
	return (size_t)(p - data) + 1;
}

static int leave_map(struct input *in, uint64_t at);

/* Whether the mapping's unfinished last line (ending at data offset
 * `total`) ends the file as it is now: a whole input, no byte appended
 * since it was mapped.  Then the line is handed out from the mapping as
 * the last window, as a read() reaching the end would hand it out; a
 * single long unterminated line (100 MB of "x") is so searched mapped,
 * not read() again into a buffer grown to its size.  A file grown since
 * reads on with read() from the line's start, joining what was appended. */
static bool map_ends_file(const struct input *in, size_t total)
{
	struct stat st;
	return !in->limit && fstat(in->fd, &st) == 0 &&
	       (uint64_t)st.st_size == in->start + in->map_offset + total;
}

/* The next window of a mapped input: the whole lines of the mapping
 * (MAP_WINDOW 0), or the whole lines of the next MAP_WINDOW bytes (a
 * longer line whole).  An unfinished last line is handed out from the
 * mapping only while it still ends the file (map_ends_file); otherwise,
 * once the complete lines are out, the input goes on with read() from that
 * line's start (leave_map), so the line is joined with what was appended
 * to it since the mapping was made, and the read() goes on until the end
 * of the file as it is then. */
int input_next_mapped(struct input *in, struct window *w)
{
	const char *data = in->map + in->map_skip;
	size_t total = in->map_len - in->map_skip, pos = in->map_pos;
	size_t end = total;
	if (pos < total && MAP_WINDOW > 0 && total - pos > MAP_WINDOW) {
		uintptr_t page = (uintptr_t)READ_ALIGN, from = (uintptr_t)(data + pos) & ~(page - 1);
		(void)madvise((void *)from, (uintptr_t)(data + pos + MAP_WINDOW) - from, MADV_POPULATE_READ);
		const char *p = memrchr(data + pos, in->eol, MAP_WINDOW);
		if (!p)
			p = memchr(data + pos + MAP_WINDOW, in->eol, total - pos - MAP_WINDOW);
		end = p ? (size_t)(p - data) + 1 : total;
	}
	if (in->read_windows)
		end = read_window_end(in, data, pos, end);
	if (in->watch_nul)
		end = input_before_nul_buffer(in, data, pos, end);
	bool last = false;
	if (pos < total && end == total && data[total - 1] != in->eol) {
		const char *p = memrchr(data + pos, in->eol, total - pos);
		end = p ? (size_t)(p - data) + 1 : pos;
		if (!p && map_ends_file(in, total)) {
			end = total;
			last = true;
		}
	}
	if (in->eof && pos >= total) /* its unfinished last line was the last window */
		return 0;
	if (pos >= end) { /* the complete lines are out: read() the rest */
		if (leave_map(in, in->map_offset + pos) != 0)
			return -1;
		return input_next_read(in, w);
	}
	w->data = data + pos;
	w->len = end - pos;
	w->offset = in->map_offset + pos;
	w->last = last;
	in->eof = last;
	w->partial = false;
	w->before = pos - lines_back(data, pos, in->keep_lines, in->eol);
	in->map_pos = end;
	if (!in->owns_fd && !in->shares_fd) {
		/* What a read() consumer would leave: stdin positioned after
		 * everything it took. */
		(void)lseek(in->fd, (off_t)(in->start + in->map_offset + end), SEEK_SET);
	}
	return 1;
}

/* Reads the last keep_lines complete lines before input offset `at` (a
 * line start) into the empty buffer, as lines already handed out, by
 * pread(): after a mapping they are the lines a before-context may need.
 * Without them (no memory, or the file now ends before `at`) the input
 * just has none kept, or is at its end. */
static void reload_kept(struct input *in, uint64_t at)
{
	for (uint64_t n = READ_ALIGN;; n *= 2) {
		uint64_t from = at > n ? at - n : 0;
		size_t want = (size_t)(at - from);
		if (want == 0 || input_reserve(in, want) != 0)
			return;
		ssize_t got;
		do
			got = pread(in->fd, in->buf, want, (off_t)(in->start + from + in->skipped));
		while (got < 0 && errno == EINTR);
		if (got != (ssize_t)want) {
			in->eof = got >= 0; /* shorter than `at` now: nothing follows */
			return;
		}
		size_t keep_at = lines_back(in->buf, want, in->keep_lines, in->eol);
		if (keep_at > 0 || from == 0 || n > SIZE_MAX / 4) {
			memmove(in->buf, in->buf + keep_at, want - keep_at);
			in->len = in->consumed = want - keep_at;
			in->offset = at - in->len;
			return;
		}
	}
}

/* Drops the mapping: the input goes on with read() from input offset `at`,
 * a line start (a range by pread(), still ending at its limit), with the
 * lines before it that keep_lines asks for.  Never maps again.  Touches no
 * mapped byte, so it may follow a SIGBUS.  Returns 0, or -1 (errno) when
 * the descriptor cannot be positioned. */
static int leave_map(struct input *in, uint64_t at)
{
	if (in->map)
		munmap(in->map, in->map_len);
	in->map = NULL;
	in->map_len = in->map_skip = in->map_pos = 0;
	in->mapped = false;
	in->may_switch = false;
	in->len = in->consumed = 0;
	in->offset = at;
	in->aligned_reads = true; /* the windows after it are grep's buffers */
	in->eof = in->limit && at >= in->limit;
	if (!in->eof && in->keep_lines)
		reload_kept(in, at);
	if (!in->shares_fd &&
	    lseek(in->fd, (off_t)(in->start + in->offset + in->len + in->skipped), SEEK_SET) < 0)
		return -1;
	return 0;
}

int input_reread_from(struct input *in, uint64_t at)
{
	if (!in->mapped || at < in->map_offset) {
		errno = EINVAL;
		return -1;
	}
	return leave_map(in, at);
}

/* AUTO on a regular file whose unfinished line has grown to INPUT_LONG_LINE
 * bytes: maps the rest of the file, from the kept lines on, instead of
 * growing the buffer (x100M.txt, one 100 MB line: 1.4 s read, 0.1 s mapped;
 * docs/perf.md).  Call after compact(), so buf[0] is the first kept byte.
 * Returns true when the input is mapped now. */
bool input_switch_to_map(struct input *in)
{
	struct stat st;
	if (fstat(in->fd, &st) != 0 || !map_file(in, in->offset, (uint64_t)st.st_size))
		return false;
	if (in->map_len - in->map_skip < in->len) { /* shrank: forget the mapping */
		munmap(in->map, in->map_len);
		in->map = NULL;
		in->mapped = false;
		return false;
	}
	in->map_pos = in->consumed;
	return true;
}

void input_stream_long_lines(struct input *in, size_t min, size_t keep)
{
	in->piece_min = min > INPUT_LONG_LINE ? min : INPUT_LONG_LINE;
	in->piece_keep = keep;
}

void input_read_windows(struct input *in)
{
	in->read_windows = true;
}

int input_next(struct input *in, struct window *w)
{
	input_next_saves(in);
	if (in->fd < 0 || in->error) {
		errno = in->fd < 0 ? EBADF : EIO;
		return -1;
	}
	int rc = in->mapped ? input_next_mapped(in, w) : input_next_read(in, w);
	input_next_arms(in, rc);
	return rc;
}

const char *input_error(const struct input *in)
{
	return in->error ? in->error : in->decomp ? decomp_error(in->decomp) : NULL;
}

void input_close(struct input *in)
{
	decomp_close(in->decomp);
	if (in->map)
		munmap(in->map, in->map_len);
	input_release_buffer(in);
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	input_reset(in);
}

/* Reads fd to its end.  Returns 0, or -1 (errno). */
static int drain(int fd)
{
	enum { DRAIN_CHUNK = 64 << 10 };
	char *buf = malloc(DRAIN_CHUNK);
	ssize_t n;
	if (!buf)
		return -1;
	while ((n = read(fd, buf, DRAIN_CHUNK)) != 0)
		if (n < 0 && errno != EINTR)
			break;
	free(buf);
	return n == 0 ? 0 : -1;
}

int input_leave(const struct input *in, uint64_t stop_offset, bool to_end)
{
	if (in->owns_fd || in->fd < 0)
		return 0;
	if (stop_offset != UINT64_MAX) {
		if (!in->decomp)
			(void)lseek(in->fd, (off_t)(in->start + stop_offset), SEEK_SET);
		return 0;
	}
	if (!to_end || in->eof)
		return 0;
	/* a file system that cannot seek (Linux's /proc says EINVAL) is left */
	if (lseek(in->fd, 0, SEEK_END) >= 0 || errno == EINVAL)
		return 0;
	return drain(in->fd);
}

size_t input_read_size(const struct input_options *opts)
{
	return opts->read_chunk ? opts->read_chunk : DEFAULT_CHUNK;
}

int input_open_range(struct input *in, const struct input *whole, uint64_t lo, uint64_t hi,
		     const struct input_options *opts)
{
	input_reset(in);
	if (!whole->is_regular || whole->start != 0 || lo >= hi) {
		errno = EINVAL;
		return -1;
	}
	in->fd = whole->fd;
	in->owns_fd = false;
	in->shares_fd = true;
	in->aligned_reads = true;
	in->eol = opts->eol;
	in->chunk = opts->read_chunk ? opts->read_chunk : DEFAULT_CHUNK;
	in->keep_lines = opts->keep_lines;
	in->dev = whole->dev;
	in->ino = whole->ino;
	in->identified = whole->identified;
	in->is_regular = true;
	in->size_at_open = whole->size_at_open;
	in->offset = lo;
	in->first_read = lo;
	in->limit = hi == INPUT_TO_END ? 0 : hi;
	in->may_switch = opts->io == INPUT_IO_AUTO;
	if (opts->io == INPUT_IO_MMAP && in->limit && !map_file(in, lo, hi))
		in->offset = lo; /* read() it */
	return 0;
}

bool input_same_file(const struct input *in, int fd)
{
	struct stat st, mine = { .st_dev = in->dev, .st_ino = in->ino };
	if (!in->is_regular || fd < 0 || fstat(fd, &st) != 0 ||
	    (!in->identified && fstat(in->fd, &mine) != 0))
		return false;
	return S_ISREG(st.st_mode) && st.st_dev == mine.st_dev && st.st_ino == mine.st_ino;
}
