/* SPDX-License-Identifier: MIT */
/* input_nul.c - where the NUL bytes are that GNU grep 3.8's buffers would
 * see (see input.h).
 *
 * Owns: finding NUL bytes in the buffer grep would check with each window
 * (the window, the unfinished line read after it, and for the first window
 * the rest of grep's first buffer), ending a mapped window before the
 * read() buffer that holds one, the reads of only NULs grep would drop,
 * and finding holes in a sparse file (SEEK_HOLE: grep treats a file with a
 * hole as holding NULs from its first buffer on).  It only reports: what a
 * NUL means is the binary rule's (binary.h).
 */
#include "input_internal.h"

#include <string.h>
#include <unistd.h>

/* Whether file offsets [from, to) hold a NUL, by pread() (false on an
 * error: the search that follows reports it). */
static bool pread_has_nul(const struct input *in, uint64_t from, uint64_t to)
{
	char buf[4096];
	while (from < to) {
		size_t want = to - from < sizeof buf ? (size_t)(to - from) : sizeof buf;
		ssize_t got = pread(in->fd, buf, want, (off_t)from);
		if (got <= 0)
			return false;
		if (memchr(buf, '\0', (size_t)got))
			return true;
		from += (uint64_t)got;
	}
	return false;
}

/* Whether file offsets [from, to) are all NUL, by pread() (false on an
 * error or a file that ends sooner). */
static bool pread_all_nul(const struct input *in, uint64_t from, uint64_t to)
{
	static const char zero[4096];
	char buf[4096];
	while (from < to) {
		size_t want = to - from < sizeof buf ? (size_t)(to - from) : sizeof buf;
		ssize_t got = pread(in->fd, buf, want, (off_t)from);
		if (got <= 0 || memcmp(buf, zero, (size_t)got) != 0)
			return false;
		from += (uint64_t)got;
	}
	return true;
}

uint64_t input_grep_drops(const struct input *in, uint64_t at, size_t n)
{
	if (!in->is_regular)
		return 0;
	uint64_t g = INPUT_GREP_BUFFER, b = in->start + (at - in->start) / g * g;
	uint64_t from = b > in->first_read ? b : in->first_read;
	uint64_t end = in->limit ? in->start + in->limit : in->size_at_open, to = b + g < end ? b + g : end;
	if (from < in->zap_from || at + n > to)
		return 0;
	return pread_all_nul(in, from, to) ? to : 0;
}

bool input_head_has_nul(const struct input *in, size_t n)
{
	size_t done = 0;
	if (in->mapped && in->map_offset == 0) {
		size_t have = in->map_len - in->map_skip;
		done = n < have ? n : have;
		if (memchr(in->map + in->map_skip, '\0', done))
			return true;
		if (done == n || !in->limit)
			return false; /* a range maps less than its file */
	}
	if (!in->is_regular)
		return false;
	if (!in->mapped && in->offset == 0) { /* the first read() is usually enough */
		done = in->len < n ? in->len : n;
		if (memchr(in->buf, '\0', done))
			return true;
		if (done == n || (in->eof && !in->limit) || in->start + done >= in->size_at_open)
			return false; /* the whole file (as it was at open) is in buf */
	}
	return pread_has_nul(in, in->start + done, in->start + n);
}

/* Whether the bytes read after the last window handed out (the start of a
 * line not complete yet) hold a NUL; for a range's last window, the bytes
 * the whole file's read would have brought in past the range. */
static bool tail_has_nul(const struct input *in)
{
	if (in->mapped) { /* the unfinished last line, when not handed out yet */
		size_t total = in->map_len - in->map_skip, pos = in->map_pos;
		const char *rest = in->map + in->map_skip + pos;
		return pos < total && !memchr(rest, in->eol, total - pos) &&
		       memchr(rest, '\0', total - pos);
	}
	if (in->len > in->consumed && memchr(in->buf + in->consumed, '\0', in->len - in->consumed))
		return true;
	if (!in->limit || in->offset + in->consumed != in->limit || in->limit % in->chunk == 0)
		return false;
	/* a range's last window: the whole file's read went on to a multiple
	 * of the chunk (see input_open_range), or to the file's end, wherever
	 * that is now (it may have grown) */
	uint64_t stop = in->limit - in->limit % in->chunk + in->chunk;
	return pread_has_nul(in, in->limit, stop);
}

/* An unfinished last line cut off after the window is in the buffer of
 * the lines before it, as in grep: window_nul counts only the bytes up to
 * the window's end. */
size_t input_before_nul_buffer(struct input *in, const char *data, size_t pos, size_t end)
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

void input_watch_nul(struct input *in)
{
	in->watch_nul = true;
}

bool input_window_has_nul(const struct input *in, const struct window *w)
{
	bool in_window = in->mapped && in->watch_nul ? in->window_nul : memchr(w->data, 0, w->len) != NULL;
	if (in_window || tail_has_nul(in))
		return true;
	if (w->offset != 0 || !in->is_regular)
		return false;
	/* the first window and its unfinished line hold the input's start */
	uint64_t seen = in->mapped ? w->len : in->len;
	if (seen >= INPUT_GREP_BUFFER || in->start + seen >= in->size_at_open)
		return false; /* all of grep's first buffer, or of the file */
	return input_head_has_nul(in, INPUT_GREP_BUFFER);
}

bool input_has_hole(const struct input *in)
{
	uint64_t from = in->start + INPUT_GREP_BUFFER;
	if (!in->is_regular || in->offset != 0 || from >= in->size_at_open)
		return false;
	/* SEEK_HOLE moves the descriptor's position: put it back, for read()
	 * and for a standard input left where grep leaves it. */
	off_t pos = lseek(in->fd, 0, SEEK_CUR);
	off_t hole = lseek(in->fd, (off_t)from, SEEK_HOLE);
	if (pos >= 0)
		(void)lseek(in->fd, pos, SEEK_SET);
	return hole >= 0 && (uint64_t)hole < in->size_at_open;
}

uint64_t input_first_nul(const struct input *in, uint64_t from)
{
	uint64_t at = from;
	if (in->mapped) {
		uint64_t end = in->map_offset + (in->map_len - in->map_skip);
		if (at >= in->map_offset && at < end) {
			const char *p = in->map + in->map_skip + (at - in->map_offset);
			const char *z = memchr(p, '\0', (size_t)(end - at));
			if (z)
				return at + (uint64_t)(z - p);
			at = end;
		}
	} else if (in->buf && at >= in->offset && at < in->offset + in->len) {
		const char *p = in->buf + (at - in->offset);
		const char *z = memchr(p, '\0', (size_t)(in->offset + in->len - at));
		if (z)
			return at + (uint64_t)(z - p);
		at = in->offset + in->len;
	}
	if (!in->is_regular || in->decomp)
		return from; /* what is ahead is not in memory and cannot be read again */
	char buf[4096];
	for (;;) {
		ssize_t got = pread(in->fd, buf, sizeof buf, (off_t)(in->start + in->skipped + at));
		if (got <= 0)
			return from;
		const char *z = memchr(buf, '\0', (size_t)got);
		if (z)
			return at + (uint64_t)(z - buf);
		at += (uint64_t)got;
	}
}
