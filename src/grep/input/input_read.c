/* SPDX-License-Identifier: MIT */
/* input_read.c - the read() path of an input (see input.h).
 *
 * Owns: the read() buffer (page-aligned, grown by mremap, reused from
 * input to input on a thread), carrying an unfinished line into the next
 * read, keeping the lines a before-context needs, reads ending where a
 * whole file's would (ranges), long lines handed out in pieces, and what
 * a binary input changes in reading: NUL ends lines, reads of only NULs
 * are dropped (holes skipped).  Mapping is input.c's.
 */
#include "decompress/decompress.h"
#include "grow.h"
#include "input_internal.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIN_BUFFER ((size_t)4096)

/* The read() buffer of the last input this thread closed, handed to the
 * next one it opens: a thread searches its inputs one after another, so one
 * page-aligned buffer serves it for a whole run (-r over 78,579 files
 * allocates it once per thread).  Like the SIGBUS guard, per thread. */
#define SPARE_MAX ((size_t)16 << 20) /* a buffer grown past this for a long line is freed */
static _Thread_local char *spare_mem;
static _Thread_local size_t spare_cap;

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

/* Geometric growth of a page-aligned anonymous mapping (mremap: no copy,
 * the pages already touched stay). */
int input_reserve(struct input *in, size_t more)
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
	size_t cap = grow_capacity(in->mem_cap, pad + in->len + more, MIN_BUFFER, 1);
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
 * on a regular file moves on to its next data where lseek finds it (a
 * read() input's descriptor is left there; a range reads at in->skipped's
 * count).  Any other input is only read on: a pipe or a device has no
 * holes, and a decoded stream's positions are not its descriptor's. */
static void skip_to_data(struct input *in, uint64_t end)
{
	uint64_t at = in->start + in->offset + in->len + in->skipped;
	in->skipped += end - at;
	if (!in->is_regular)
		return;
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
	in->watch_nul = false;
	/* grep, reading INPUT_GREP_BUFFER bytes at a time, would be at the end
	 * of the read holding the last byte read so far */
	uint64_t at = in->start + in->offset + in->len + in->skipped, g = INPUT_GREP_BUFFER;
	uint64_t end = in->limit ? in->start + in->limit : in->size_at_open;
	uint64_t next = in->start + (at - in->start + g - 1) / g * g;
	in->zap_from = at == in->first_read || next > end ? at : next;
}

/* Takes the n bytes a read() of `want` at file position `at` brought into
 * buf[len..): drops them when they are all NUL and may be dropped, marks
 * the end of input, and fills *w with the complete lines now in the
 * buffer (or the window input_watch_nul or a piece asks for).  Returns 1
 * with *w filled, 0 when more must be read first. */
static int take_read(struct input *in, struct window *w, size_t n, size_t want, uint64_t at)
{
	size_t fresh = in->len;
	uint64_t drop = 0; /* the file position to drop the read up to */
	if (in->skip_zero_reads && all_nul(in->buf + fresh, n))
		drop = in->chunk >= INPUT_GREP_BUFFER ? at + (uint64_t)n : input_grep_drops(in, at, n);
	if (drop)
		skip_to_data(in, drop);
	else
		in->len += n;
	/* A regular file whose read() came back short at or past its size at
	 * open is at its end: no read() just to see 0 (one system call per
	 * file saved, which is much of -r's cost on VMs).  A full read() there
	 * may be followed by bytes appended since: read on. */
	uint64_t read_to = in->offset + in->len + in->skipped;
	if ((in->size_at_open > 0 && n < want && in->start + read_to >= in->size_at_open) ||
	    (in->limit && read_to >= in->limit))
		in->eof = true;
	if (in->len == fresh)
		return 0;
	const char *p = memrchr(in->buf + fresh, in->eol, in->len - fresh);
	if (in->nul_ends_lines) {
		const char *z = memrchr(in->buf + fresh, '\0', in->len - fresh);
		p = !p || (z && z > p) ? z : p;
	}
	if (p) {
		fill_window(in, w, (size_t)(p - in->buf) + 1, false, false);
		return 1;
	}
	if (in->watch_nul && !in->in_piece && memchr(in->buf + fresh, '\0', in->len - fresh)) {
		/* grep's buffer holds a NUL now: an empty window, so that the
		 * caller turns the input binary (NUL then ends lines) before a
		 * run of NULs grows the unfinished line */
		fill_window(in, w, in->consumed, false, false);
		return 1;
	}
	if (in->piece_min && !in->eof && in->len - in->consumed >= in->piece_min) {
		fill_window(in, w, in->len, false, true);
		return 1;
	}
	return 0;
}

/* How many bytes the next read() asks for at file position `at`. */
static size_t read_want(const struct input *in, uint64_t at)
{
	size_t want = in->chunk;
	uint64_t rel = at - in->start;
	/* after zapping, small reads stop at grep's read boundaries, so that
	 * none spans two of grep's (input_grep_drops) */
	bool small_zapped = in->skip_zero_reads && in->chunk < INPUT_GREP_BUFFER;
	if (in->aligned_reads || small_zapped) /* reads end where a whole file's would (see input.h) */
		want -= (size_t)(rel % in->chunk);
	if (small_zapped && INPUT_GREP_BUFFER - rel % INPUT_GREP_BUFFER < want)
		want = (size_t)(INPUT_GREP_BUFFER - rel % INPUT_GREP_BUFFER);
	if (in->limit && in->limit - rel < want)
		want = (size_t)(in->limit - rel);
	return want;
}

/* On entry buf[consumed..len) holds no `eol` byte, nor a NUL once NUL
 * ends lines (it is the unfinished line carried over), so only newly read
 * bytes are searched. */
int input_next_read(struct input *in, struct window *w)
{
	compact(in);
	if (in->prefetched) { /* input_open's first read, taken as if made now */
		size_t n = in->prefetched;
		in->prefetched = 0;
		if (take_read(in, w, n, in->chunk, in->start + in->offset + in->len + in->skipped))
			return 1;
	}
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
			if (input_switch_to_map(in))
				return input_next_mapped(in, w);
		}
		if (input_reserve(in, in->chunk) != 0)
			return -1;
		ssize_t n;
		uint64_t at = in->start + in->offset + in->len + in->skipped;
		size_t want = read_want(in, at);
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
		if (take_read(in, w, (size_t)n, want, at))
			return 1;
	}
}

void input_release_buffer(struct input *in)
{
	if (in->mem && in->mem_cap <= SPARE_MAX) { /* the next input reuses it */
		if (spare_mem)
			munmap(spare_mem, spare_cap);
		spare_mem = in->mem;
		spare_cap = in->mem_cap;
	} else if (in->mem) {
		munmap(in->mem, in->mem_cap);
	}
}

void input_thread_done(void)
{
	if (spare_mem)
		munmap(spare_mem, spare_cap);
	spare_mem = NULL;
	spare_cap = 0;
}
