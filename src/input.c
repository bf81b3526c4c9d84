/* input.c - the bytes of one input, handed out a window of whole lines at a
 * time.
 *
 * Owns: opening and fstat'ing an input, choosing mmap or read() (read() by
 * default, switching a regular file to mmap at a long line; docs/perf.md
 * "I/O policy"), the read() buffer (page-aligned, reused from input to input,
 * growth, carrying an unfinished line into the next window, keeping the lines
 * a before-context needs), the file offset of a shared standard input, and
 * the SIGBUS guard.
 * Refuses to know: patterns, matching, output, messages.  Errors are errno
 * values for the caller to print; nothing here writes to stdout or stderr.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
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

int input_open(struct input *in, const char *path, const struct input_options *opts)
{
	static const struct input_options defaults = { INPUT_IO_AUTO, 0, '\n', 0 };
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

/* The next window of a mapped input: the whole mapping (MAP_WINDOW 0), or
 * the whole lines of the next MAP_WINDOW bytes (a longer line whole); an
 * unfinished last line after them comes as a window of its own. */
static int next_mapped(struct input *in, struct window *w)
{
	const char *data = in->map + in->map_skip;
	size_t total = in->map_len - in->map_skip, pos = in->map_pos;
	if (in->map_done || in->map_len <= in->map_skip || pos >= total)
		return 0;
	size_t end = total;
	if (MAP_WINDOW > 0 && total - pos > MAP_WINDOW) {
		uintptr_t page = (uintptr_t)READ_ALIGN, from = (uintptr_t)(data + pos) & ~(page - 1);
		(void)madvise((void *)from, (uintptr_t)(data + pos + MAP_WINDOW) - from, MADV_POPULATE_READ);
		const char *p = memrchr(data + pos, in->eol, MAP_WINDOW);
		if (!p)
			p = memchr(data + pos + MAP_WINDOW, in->eol, total - pos - MAP_WINDOW);
		end = p ? (size_t)(p - data) + 1 : total;
	}
	if (end == total && data[total - 1] != in->eol) {
		/* an unfinished last line is a window of its own, as for a
		 * read() consumer and in grep (its context after a suppressed
		 * line starts there) */
		const char *p = memrchr(data + pos, in->eol, total - pos);
		if (p)
			end = (size_t)(p - data) + 1;
	}
	w->data = data + pos;
	w->len = end - pos;
	w->offset = in->map_offset + pos;
	w->last = end == total;
	w->before = pos - lines_back(data, pos, in->keep_lines, in->eol);
	in->map_pos = end;
	if (!in->owns_fd && !in->shares_fd) {
		/* What a read() consumer would leave: stdin positioned after
		 * everything it took. */
		(void)lseek(in->fd, (off_t)(in->start + in->map_offset + end), SEEK_SET);
	}
	if (w->last) {
		in->map_done = true;
		in->eof = true;
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
	size_t drop = lines_back(in->buf, in->consumed, in->keep_lines, in->eol);
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

static void fill_window(struct input *in, struct window *w, size_t end, bool last)
{
	w->data = in->buf + in->consumed;
	w->len = end - in->consumed;
	w->offset = in->offset + in->consumed;
	w->last = last;
	w->before = in->consumed;
	in->consumed = end;
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

void input_zap_nul(struct input *in, bool skip_zero_reads)
{
	in->nul_ends_lines = in->eol != '\0';
	in->skip_zero_reads = skip_zero_reads;
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
			if (in->consumed == in->len)
				return 0;
			fill_window(in, w, in->len, true);
			return 1;
		}
		if (in->may_switch && in->len - in->consumed >= INPUT_LONG_LINE) {
			in->may_switch = false;
			if (switch_to_map(in))
				return next_mapped(in, w);
		}
		if (reserve(in, in->chunk) != 0)
			return -1;
		ssize_t n;
		uint64_t at = in->start + in->offset + in->len + in->skipped;
		size_t want = in->chunk;
		if (in->limit) { /* reads end where a whole file's would (see input.h) */
			want -= (size_t)(at % in->chunk);
			if (in->limit - (at - in->start) < want)
				want = (size_t)(in->limit - (at - in->start));
		}
		if (in->skip_zero_reads && in->chunk < INPUT_GREP_BUFFER) {
			/* small reads end at multiples of the chunk, as a range's
			 * do, and of grep's reads, so that none spans two of
			 * grep's (input_grep_drops) */
			uint64_t rel = at - in->start;
			if (!in->limit)
				want -= (size_t)(rel % in->chunk);
			size_t to_grep = INPUT_GREP_BUFFER - (size_t)(rel % INPUT_GREP_BUFFER);
			want = want < to_grep ? want : to_grep;
		}
		do
			n = in->limit ? pread(in->fd, in->buf + in->len, want, (off_t)at)
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
		/* A regular file read up to its size at open is at its end: no
		 * read() just to see 0 (one system call per file saved, which is
		 * much of -r's cost on VMs). */
		uint64_t read_to = in->offset + in->len + in->skipped;
		if ((in->size_at_open > 0 && in->start + read_to >= in->size_at_open) ||
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
			fill_window(in, w, (size_t)(p - in->buf) + 1, false);
			return 1;
		}
	}
}

int input_next(struct input *in, struct window *w)
{
	if (in->fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (in->mapped)
		return next_mapped(in, w);
	return next_read(in, w);
}

void input_close(struct input *in)
{
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
	in->eol = opts->eol;
	in->chunk = opts->read_chunk ? opts->read_chunk : DEFAULT_CHUNK;
	in->keep_lines = opts->keep_lines;
	in->dev = whole->dev;
	in->ino = whole->ino;
	in->is_regular = true;
	in->size_at_open = whole->size_at_open;
	in->offset = lo;
	in->first_read = lo;
	in->limit = hi;
	in->may_switch = opts->io == INPUT_IO_AUTO;
	if (opts->io == INPUT_IO_MMAP && !map_file(in, lo, hi))
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

/* ---- SIGBUS guard ------------------------------------------------------ */

/* The armed jump target.  `guard_armed` is what the handler trusts; the
 * pointer is only read after it. */
static _Thread_local sigjmp_buf *volatile guard_target;
static _Thread_local volatile sig_atomic_t guard_armed;

static void on_sigbus(int sig)
{
	if (guard_armed) {
		sigjmp_buf *target = guard_target;
		guard_armed = 0;
		if (target)
			siglongjmp(*target, 1);
	}
	/* Not ours: die the way the signal would have killed us. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

void input_guard_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	/* Not blocked while handled, so the jump out of the handler needs no
	 * saved signal mask: sigsetjmp(jb, 0) costs no system call per file. */
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
}

void input_guard_arm(sigjmp_buf *target)
{
	guard_target = target;
	atomic_signal_fence(memory_order_seq_cst);
	guard_armed = 1;
	atomic_signal_fence(memory_order_seq_cst);
}

void input_guard_disarm(void)
{
	guard_armed = 0;
	atomic_signal_fence(memory_order_seq_cst);
	guard_target = NULL;
}
