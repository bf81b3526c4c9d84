/* input.c - the bytes of one input, handed out a window of whole lines at a
 * time.
 *
 * Owns: opening and fstat'ing an input, choosing mmap or read() (read() by
 * default, switching a regular file to mmap at a long line; docs/perf.md
 * "I/O policy"), the read() buffer (page-aligned, reused from input to input,
 * growth, carrying an unfinished line into the next window, keeping the lines
 * a before-context needs), the file offset of a shared standard input, and
 * leaving a mapping for read() at a line start (after its complete lines,
 * or after a SIGBUS).  The SIGBUS guard itself is input_guard.c's.
 * Refuses to know: patterns, matching, output, messages.  Errors are errno
 * values for the caller to print; nothing here writes to stdout or stderr.
 */
#include "input.h"
#include "decompress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_CHUNK INPUT_GREP_BUFFER /* 64-256 KiB all tie (docs/perf.md) */
#define MIN_BUFFER ((size_t)4096)
/* read() lands on page-aligned addresses: the buffer is allocated aligned
 * and the carried unfinished line is placed so that it ends on a boundary. */
#define READ_ALIGN ((size_t)4096)

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

/* The read() buffer of the last input this thread closed, handed to the
 * next one it opens: a thread searches its inputs one after another, so one
 * page-aligned buffer serves it for a whole run (-r over 78,579 files
 * allocates it once per thread).  Like the SIGBUS guard, per thread. */
#define SPARE_MAX ((size_t)16 << 20) /* a buffer grown past this for a long line is freed */
static _Thread_local char *spare_mem;
static _Thread_local size_t spare_cap;

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
	 * maps (switch_to_map); pipes, ttys and devices cannot be mapped. */
	(void)mode;
	(void)size;
	return false;
}

static int reserve(struct input *in, size_t more);

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
		if (reserve(in, in->chunk) != 0)
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

int input_open(struct input *in, const char *path, const struct input_options *opts)
{
	static const struct input_options defaults = { .io = INPUT_IO_AUTO, .eol = '\n' };
	if (!opts)
		opts = &defaults;
	input_reset(in);

	bool is_stdin = path == NULL || strcmp(path, "-") == 0;
	int fd = STDIN_FILENO;
	if (!is_stdin) {
		do
			fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
		while (fd < 0 && errno == EINTR);
		if (fd < 0)
			return -1;
	}

	struct stat st;
	int failed = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	if (failed) {
		if (!is_stdin)
			close(fd);
		errno = failed;
		return -1;
	}

	in->fd = fd;
	in->owns_fd = !is_stdin;
	in->eol = opts->eol;
	in->chunk = opts->read_chunk ? opts->read_chunk : DEFAULT_CHUNK;
	in->keep_lines = opts->keep_lines;
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	in->is_regular = S_ISREG(st.st_mode);
	in->size_at_open = in->is_regular ? (uint64_t)st.st_size : 0;

	if (in->is_regular && is_stdin) {
		/* A stdin partly consumed by an earlier process starts there. */
		off_t cur = lseek(fd, 0, SEEK_CUR);
		in->start = cur > 0 ? (uint64_t)cur : 0;
	}
	in->first_read = in->start;
	if (opts->decompress && open_compressed(in, opts->decode_ahead) != 0) {
		input_close(in);
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

/* Start (in data[0..pos), which ends at a line boundary) of its last
 * `keep` complete lines. */
static size_t lines_back(const char *data, size_t pos, size_t keep, char eol)
{
	for (size_t k = 0; k < keep && pos > 0; k++) {
		/* data[pos - 1] ends the line; find where it starts. */
		const char *p = pos > 1 ? memrchr(data, eol, pos - 1) : NULL;
		pos = p ? (size_t)(p - data) + 1 : 0;
	}
	return pos;
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

/* Where the mapped window data[pos..end) ends for input_watch_nul: before
 * the read() buffer that holds its first NUL.  Records in->window_nul: the
 * bytes up to `end` hold a NUL (an unfinished last line cut off after this
 * is in the buffer of the lines before it, as in grep). */
static size_t before_nul_buffer(struct input *in, const char *data, size_t pos, size_t end)
{
	const char *z = memchr(data + pos, '\0', end - pos);
	in->window_nul = z != NULL;
	if (!z)
		return end;
	uint64_t at = in->map_offset + (uint64_t)(z - data);
	uint64_t read_start = at - at % in->chunk; /* as input offset */
	if (read_start <= in->map_offset + pos)
		return end;
	const char *p = memrchr(data + pos, in->eol, (size_t)(read_start - in->map_offset) - pos);
	if (!p)
		return end;
	in->window_nul = false;
	return (size_t)(p - data) + 1;
}

static int leave_map(struct input *in, uint64_t at);
static int next_read(struct input *in, struct window *w);

/* The next window of a mapped input: the whole lines of the mapping
 * (MAP_WINDOW 0), or the whole lines of the next MAP_WINDOW bytes (a
 * longer line whole).  An unfinished last line is not handed out from the
 * mapping: once the complete lines are, the input goes on with read() from
 * that line's start (leave_map), so the line is joined with what was
 * appended to it since the mapping was made, and the read() goes on until
 * the end of the file as it is then. */
static int next_mapped(struct input *in, struct window *w)
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
		end = before_nul_buffer(in, data, pos, end);
	if (pos < total && end == total && data[total - 1] != in->eol) {
		const char *p = memrchr(data + pos, in->eol, total - pos);
		end = p ? (size_t)(p - data) + 1 : pos;
	}
	if (pos >= end) { /* the complete lines are out: read() the rest */
		if (leave_map(in, in->map_offset + pos) != 0)
			return -1;
		return next_read(in, w);
	}
	w->data = data + pos;
	w->len = end - pos;
	w->offset = in->map_offset + pos;
	w->last = false;
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

/* Where in the allocation `n` bytes go so that they end page-aligned (the
 * next read() then lands on a page boundary). */
static size_t pad_for(size_t n)
{
	return (READ_ALIGN - n % READ_ALIGN) % READ_ALIGN;
}

/* Drops handed-out bytes that are not kept, moving the rest to the front
 * of the allocation (buf = mem + pad, so that buf + len is page-aligned). */
static void compact(struct input *in)
{
	size_t drop = in->in_piece ? in->consumed - in->piece_keep
				   : lines_back(in->buf, in->consumed, in->keep_lines, in->eol);
	if (drop == 0)
		return;
	size_t keep = in->len - drop, pad = pad_for(keep);
	char *to = in->mem + pad;
	if (pad + keep > in->mem_cap) { /* no room for the pad: stay unaligned */
		pad = 0;
		to = in->mem;
	}
	memmove(to, in->buf + drop, keep);
	in->buf = to;
	in->cap = in->mem_cap - pad;
	in->len = keep;
	in->consumed -= drop;
	in->offset += drop;
}

/* Makes room for `more` bytes after buf[len]; geometric growth of a
 * page-aligned anonymous mapping (mremap: no copy, the pages already touched
 * stay), the spare buffer of an earlier input taken first.
 * Returns 0 or -1 (ENOMEM). */
static int reserve(struct input *in, size_t more)
{
	if (!in->mem && spare_mem) {
		in->mem = in->buf = spare_mem;
		in->mem_cap = in->cap = spare_cap;
		spare_mem = NULL;
		spare_cap = 0;
	}
	if (in->cap - in->len >= more)
		return 0;
	size_t pad = (size_t)(in->buf - in->mem);
	if (more > SIZE_MAX - in->len - pad - READ_ALIGN) {
		errno = ENOMEM;
		return -1;
	}
	size_t need = pad + in->len + more;
	size_t cap = in->mem_cap ? in->mem_cap : MIN_BUFFER;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	void *p;
#ifdef __SANITIZE_THREAD__
	/* ThreadSanitizer does not see mremap: a mapping it moved would keep
	 * its old owner's history at the new address (false data races). */
	p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED && in->mem) {
		memcpy(p, in->mem, pad + in->len);
		munmap(in->mem, in->mem_cap);
	}
#else
	p = in->mem ? mremap(in->mem, in->mem_cap, cap, MREMAP_MAYMOVE)
		    : mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#endif
	if (p == MAP_FAILED) {
		errno = ENOMEM;
		return -1;
	}
	in->mem = p;
	in->mem_cap = cap;
	in->buf = in->mem + pad;
	in->cap = cap - pad;
	return 0;
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
		if (want == 0 || reserve(in, want) != 0)
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
static bool switch_to_map(struct input *in)
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

static void fill_window(struct input *in, struct window *w, size_t end, bool last, bool partial)
{
	w->data = in->buf + in->consumed;
	w->len = end - in->consumed;
	w->offset = in->offset + in->consumed;
	w->last = last;
	w->before = in->consumed;
	w->partial = partial;
	in->consumed = end;
	in->in_piece = partial;
}

static bool all_nul(const char *p, size_t n)
{
	return p[0] == '\0' && memcmp(p, p + 1, n - 1) == 0;
}

/* Drops a read of only NUL bytes that ended at file position `end`, and
 * moves on to the file's next data where lseek finds it (a read() input's
 * descriptor is left there; a range reads at in->skipped's count). */
static void skip_to_data(struct input *in, uint64_t end)
{
	uint64_t at = in->start + in->offset + in->len + in->skipped;
	in->skipped += end - at;
	off_t data = lseek(in->fd, (off_t)end, SEEK_DATA);
	if (data < 0 && errno == ENXIO) /* only a hole up to the end */
		data = lseek(in->fd, 0, SEEK_END);
	if (data < 0 || (uint64_t)data <= end)
		return;
	uint64_t stop = in->limit ? in->start + in->limit : (uint64_t)data;
	in->skipped += ((uint64_t)data < stop ? (uint64_t)data : stop) - end;
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

void input_zap_nul(struct input *in, bool skip_zero_reads)
{
	in->nul_ends_lines = in->eol != '\0';
	in->skip_zero_reads = skip_zero_reads;
	in->watch_nul = false;
	/* grep, reading INPUT_GREP_BUFFER bytes at a time, would be at the end
	 * of the read holding the last byte read so far */
	uint64_t at = in->start + in->offset + in->len + in->skipped, g = INPUT_GREP_BUFFER;
	uint64_t end = in->limit ? in->start + in->limit : in->size_at_open;
	uint64_t next = in->start + (at - in->start + g - 1) / g * g;
	in->zap_from = at == in->first_read || next > end ? at : next;
}

/* read() path.  On entry buf[consumed..len) holds no `eol` byte, nor a NUL
 * once NUL ends lines (it is the unfinished line carried over), so only
 * newly read bytes are searched. */
static int next_read(struct input *in, struct window *w)
{
	compact(in);
	for (;;) {
		if (in->eof) {
			/* after a piece, an empty last window ends its line */
			if (in->consumed == in->len && !in->in_piece)
				return 0;
			fill_window(in, w, in->len, true, false);
			return 1;
		}
		if (in->may_switch && !in->piece_min && in->len - in->consumed >= INPUT_LONG_LINE) {
			in->may_switch = false;
			if (switch_to_map(in))
				return next_mapped(in, w);
		}
		if (reserve(in, in->chunk) != 0)
			return -1;
		ssize_t n;
		uint64_t at = in->start + in->offset + in->len + in->skipped;
		size_t want = in->chunk;
		uint64_t rel = at - in->start;
		/* after zapping, small reads stop at grep's read boundaries, so
		 * that none spans two of grep's (input_grep_drops) */
		bool small_zapped = in->skip_zero_reads && in->chunk < INPUT_GREP_BUFFER;
		if (in->aligned_reads || small_zapped) /* reads end where a whole file's would (see input.h) */
			want -= (size_t)(rel % in->chunk);
		if (small_zapped && INPUT_GREP_BUFFER - rel % INPUT_GREP_BUFFER < want)
			want = (size_t)(INPUT_GREP_BUFFER - rel % INPUT_GREP_BUFFER);
		if (in->limit && in->limit - rel < want)
			want = (size_t)(in->limit - rel);
		do
			n = in->decomp ? decomp_read(in->decomp, in->buf + in->len, want)
			    : in->shares_fd ? pread(in->fd, in->buf + in->len, want, (off_t)at)
					    : read(in->fd, in->buf + in->len, want);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -1;
		if (n == 0) {
			in->eof = true;
			continue;
		}
		size_t fresh = in->len;
		uint64_t drop = 0; /* the file position to drop the read up to */
		if (in->skip_zero_reads && all_nul(in->buf + fresh, (size_t)n))
			drop = in->chunk >= INPUT_GREP_BUFFER ? at + (uint64_t)n
							      : input_grep_drops(in, at, (size_t)n);
		if (drop)
			skip_to_data(in, drop);
		else
			in->len += (size_t)n;
		/* A regular file whose read() came back short at or past its
		 * size at open is at its end: no read() just to see 0 (one system
		 * call per file saved, which is much of -r's cost on VMs).  A full
		 * read() there may be followed by bytes appended since: read on. */
		uint64_t read_to = in->offset + in->len + in->skipped;
		if ((in->size_at_open > 0 && (size_t)n < want && in->start + read_to >= in->size_at_open) ||
		    (in->limit && read_to >= in->limit))
			in->eof = true;
		if (in->len == fresh)
			continue;
		const char *p = memrchr(in->buf + fresh, in->eol, in->len - fresh);
		if (in->nul_ends_lines) {
			const char *z = memrchr(in->buf + fresh, '\0', in->len - fresh);
			p = !p || (z && z > p) ? z : p;
		}
		if (p) {
			fill_window(in, w, (size_t)(p - in->buf) + 1, false, false);
			return 1;
		}
		if (in->piece_min && !in->eof && in->len - in->consumed >= in->piece_min) {
			fill_window(in, w, in->len, false, true);
			return 1;
		}
	}
}

int input_next(struct input *in, struct window *w)
{
	if (in->fd < 0 || in->error) {
		errno = in->fd < 0 ? EBADF : EIO;
		return -1;
	}
	if (in->mapped)
		return next_mapped(in, w);
	return next_read(in, w);
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
	if (in->mem && in->mem_cap <= SPARE_MAX) { /* the next input reuses it */
		if (spare_mem)
			munmap(spare_mem, spare_cap);
		spare_mem = in->mem;
		spare_cap = in->mem_cap;
	} else if (in->mem) {
		munmap(in->mem, in->mem_cap);
	}
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	input_reset(in);
}

size_t input_read_size(const struct input_options *opts)
{
	return opts->read_chunk ? opts->read_chunk : DEFAULT_CHUNK;
}

void input_thread_done(void)
{
	if (spare_mem)
		munmap(spare_mem, spare_cap);
	spare_mem = NULL;
	spare_cap = 0;
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
	struct stat st;
	if (!in->is_regular || fd < 0 || fstat(fd, &st) != 0)
		return false;
	return S_ISREG(st.st_mode) && st.st_dev == in->dev && st.st_ino == in->ino;
}
