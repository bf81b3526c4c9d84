/* input.c - the bytes of one input, handed out a window of whole lines at a
 * time.
 *
 * Owns: opening and fstat'ing an input, choosing mmap or read(), the read()
 * buffer (growth, carrying an unfinished line into the next window, keeping
 * the lines a before-context needs), the file offset of a shared standard
 * input, and the SIGBUS guard.
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

#define DEFAULT_CHUNK ((size_t)128 * 1024)
#define MIN_BUFFER ((size_t)4096)

static void input_reset(struct input *in)
{
	memset(in, 0, sizeof *in);
	in->fd = -1;
}

/* Maps the rest of the regular file open on in->fd, from in->start to
 * `size`.  Returns true when mapped; false (nothing changed) when the file
 * should be read() instead: empty, too large for the address space, or
 * mmap refused. */
static bool map_file(struct input *in, uint64_t size)
{
	if (size <= in->start)
		return false;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	uint64_t aligned = in->start - in->start % (uint64_t)page;
	uint64_t span = size - aligned;
	if (span > SIZE_MAX || aligned > (uint64_t)INT64_MAX)
		return false;
	void *p = mmap(NULL, (size_t)span, PROT_READ, MAP_PRIVATE, in->fd, (off_t)aligned);
	if (p == MAP_FAILED)
		return false;
	(void)madvise(p, (size_t)span, MADV_SEQUENTIAL);
	in->map = p;
	in->map_len = (size_t)span;
	in->map_skip = (size_t)(in->start - aligned);
	in->mapped = true;
	return true;
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

	if (in->is_regular && is_stdin) {
		/* A stdin partly consumed by an earlier process starts there. */
		off_t cur = lseek(fd, 0, SEEK_CUR);
		in->start = cur > 0 ? (uint64_t)cur : 0;
	}
	/* Automatic: map only large files.  Setting up and faulting in a mapping
	 * costs more than reading a small file (-r over the Linux tree: 13.8 s
	 * mapped, 4.1 s read; docs/perf.md). */
	bool map = opts->io == INPUT_IO_MMAP || (opts->io == INPUT_IO_AUTO && st.st_size >= INPUT_MAP_MIN);
	if (in->is_regular && map && st.st_size > 0)
		(void)map_file(in, (uint64_t)st.st_size);
	return 0;
}

/* The single window of a mapped input. */
static int next_mapped(struct input *in, struct window *w)
{
	if (in->map_done || in->map_len <= in->map_skip)
		return 0;
	in->map_done = true;
	w->data = in->map + in->map_skip;
	w->len = in->map_len - in->map_skip;
	w->offset = 0;
	w->last = true;
	w->before = 0;
	if (!in->owns_fd) {
		/* What a read() consumer would leave: stdin positioned after
		 * everything it took. */
		(void)lseek(in->fd, (off_t)(in->start + w->len), SEEK_SET);
	}
	in->eof = true;
	return 1;
}

/* Start (in buf) of the kept lines: the last in->keep_lines complete lines
 * of buf[0..in->consumed), which always ends at a line boundary. */
static size_t keep_from(const struct input *in)
{
	size_t pos = in->consumed;
	for (size_t k = 0; k < in->keep_lines && pos > 0; k++) {
		/* buf[pos - 1] ends the line; find where it starts. */
		const char *p = pos > 1 ? memrchr(in->buf, in->eol, pos - 1) : NULL;
		pos = p ? (size_t)(p - in->buf) + 1 : 0;
	}
	return pos;
}

/* Drops handed-out bytes that are not kept, moving the rest to buf[0]. */
static void compact(struct input *in)
{
	size_t drop = keep_from(in);
	if (drop == 0)
		return;
	memmove(in->buf, in->buf + drop, in->len - drop);
	in->len -= drop;
	in->consumed -= drop;
	in->offset += drop;
}

/* Makes room for `more` bytes after buf[len]; geometric growth.
 * Returns 0 or -1 (ENOMEM). */
static int reserve(struct input *in, size_t more)
{
	if (in->cap - in->len >= more)
		return 0;
	if (more > SIZE_MAX - in->len) {
		errno = ENOMEM;
		return -1;
	}
	size_t need = in->len + more;
	size_t cap = in->cap ? in->cap : MIN_BUFFER;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	char *p = realloc(in->buf, cap);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	in->buf = p;
	in->cap = cap;
	return 0;
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

/* read() path.  On entry buf[consumed..len) holds no `eol` byte (it is the
 * unfinished line carried over), so only newly read bytes are searched. */
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
		if (reserve(in, in->chunk) != 0)
			return -1;
		ssize_t n;
		do
			n = read(in->fd, in->buf + in->len, in->chunk);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -1;
		if (n == 0) {
			in->eof = true;
			continue;
		}
		size_t fresh = in->len;
		in->len += (size_t)n;
		const char *p = memrchr(in->buf + fresh, in->eol, (size_t)n);
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
	free(in->buf);
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	input_reset(in);
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
static sigjmp_buf *volatile guard_target;
static volatile sig_atomic_t guard_armed;

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
	sa.sa_flags = 0;
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

bool input_head_has_nul(const struct input *in, size_t n)
{
	if (in->mapped)
		return memchr(in->map + in->map_skip, '\0',
			      n < in->map_len - in->map_skip ? n : in->map_len - in->map_skip) != NULL;
	if (!in->is_regular)
		return false;
	char buf[4096];
	for (size_t done = 0; done < n;) {
		size_t want = n - done < sizeof buf ? n - done : sizeof buf;
		ssize_t got = pread(in->fd, buf, want, (off_t)(in->start + done));
		if (got <= 0)
			return false;
		if (memchr(buf, '\0', (size_t)got))
			return true;
		done += (size_t)got;
	}
	return false;
}
