/* SPDX-License-Identifier: MIT */
/* records_windows.c - one run's read windows in a --records job (see
 * records_windows.h).
 *
 * A window start is found without reading the file from its start: for a
 * multiple M of the read size whose read [M - size, M) holds a line
 * terminator, the line start after the last one before M is a window start
 * (the window holding byte M-1 ends there, or starts there), so the window
 * holding a line is found from the last such M at or before it, one or two
 * windows back.
 */
#include "records_windows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "input/input.h"
#include "records.h"

/* Bytes read at a time looking for a line terminator. */
#define SCAN_PIECE ((size_t)4 << 10)

/* pread of exactly n bytes: false with rw->err set otherwise. */
static bool read_exact(struct records_windows *rw, char *buf, size_t n, uint64_t at)
{
	for (size_t done = 0; done < n;) {
		ssize_t got = pread(rw->fd, buf + done, n - done, (off_t)(at + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rw->err = got < 0 ? errno : EIO; /* shrank since it was opened */
			return false;
		}
		done += (size_t)got;
	}
	return true;
}

/* Just past the last terminator in [from, to), or WINDOW_NONE. */
static uint64_t last_eol_end(struct records_windows *rw, uint64_t from, uint64_t to)
{
	char buf[SCAN_PIECE];
	while (to > from) {
		size_t n = to - from < SCAN_PIECE ? (size_t)(to - from) : SCAN_PIECE;
		if (!read_exact(rw, buf, n, to - n))
			return WINDOW_NONE;
		const char *e = memrchr(buf, rw->eol, n);
		if (e)
			return to - n + (uint64_t)(e - buf) + 1;
		to -= n;
	}
	return WINDOW_NONE;
}

/* The first terminator at or after `from`, or WINDOW_NONE. */
static uint64_t first_eol(struct records_windows *rw, uint64_t from)
{
	char buf[SCAN_PIECE];
	while (from < rw->size) {
		size_t n = rw->size - from < SCAN_PIECE ? (size_t)(rw->size - from) : SCAN_PIECE;
		if (!read_exact(rw, buf, n, from))
			return WINDOW_NONE;
		const char *e = memchr(buf, rw->eol, n);
		if (e)
			return from + (uint64_t)(e - buf);
		from += n;
	}
	return WINDOW_NONE;
}

/* The end of one run's window starting at line start b: past the last
 * terminator before the multiple of the read size that follows the first
 * terminator at or after b (the file's end for a last line without one). */
static uint64_t window_end(struct records_windows *rw, uint64_t b)
{
	uint64_t e = first_eol(rw, b);
	if (e == WINDOW_NONE)
		return rw->size;
	uint64_t m = e - e % rw->chunk + rw->chunk;
	uint64_t end = last_eol_end(rw, e, m < rw->size ? m : rw->size);
	return end == WINDOW_NONE ? rw->size : end;
}

/* Makes [ws, we) the window of one run holding line start `at`. */
static void window_to(struct records_windows *rw, uint64_t at)
{
	while (rw->we <= at && rw->we < rw->size && !rw->err) {
		rw->ws = rw->we;
		rw->we = window_end(rw, rw->ws);
		rw->checked = rw->invalid = false;
	}
}

/* Reads the current window: whether it is valid UTF-8, its invalid lines. */
static void check_window(struct records_windows *rw)
{
	rw->checked = true;
	size_t len = (size_t)(rw->we - rw->ws);
	if (rw->cap < len) {
		char *buf = realloc(rw->buf, len);
		if (!buf) {
			rw->err = ENOMEM;
			return;
		}
		rw->buf = buf;
		rw->cap = len;
	}
	if (!read_exact(rw, rw->buf, len, rw->ws))
		return;
	rw->invalid = !binary_text_valid(&rw->bin, rw->buf, len);
	rw->at = rw->ws;
	rw->n_bad = rw->next_bad = 0;
	for (size_t p = 0; rw->invalid && p < len;) {
		const char *e = memchr(rw->buf + p, rw->eol, len - p);
		size_t end = e ? (size_t)(e - rw->buf) + 1 : len;
		if (!binary_admits_line(&rw->bin, rw->buf + p, end - p)) {
			uint64_t *bad = grow_array(rw->bad, &rw->bad_cap, rw->n_bad + 1, sizeof *bad, 16);
			if (!bad) {
				rw->err = ENOMEM;
				return;
			}
			rw->bad = bad;
			bad[rw->n_bad++] = rw->ws + p;
		}
		p = end;
	}
}

bool records_windows_wanted(const struct scaleout_options *so)
{
	return so->encoding_checked && so->after > 0 && so->prints_lines;
}

uint64_t records_windows_begin(struct records_windows *rw, const struct search_options *opt,
			       size_t chunk, struct outbuf *out, int fd, uint64_t size, uint64_t lo)
{
	*rw = (struct records_windows){
		.out = out, .fd = fd, .eol = opt->eol, .size = size, .lo = lo, .chunk = chunk,
		.counted = opt->line_number, .after = opt->after,
	};
	binary_begin(&rw->bin, opt, false);
	if (lo >= size)
		return WINDOW_NONE;
	uint64_t start = 0;
	for (uint64_t m = lo - lo % rw->chunk; m > 0 && !rw->err; m -= rw->chunk)
		if ((start = last_eol_end(rw, m - rw->chunk, m)) != WINDOW_NONE)
			break;
	start = start == WINDOW_NONE ? 0 : start;
	rw->we = start;
	do { /* the windows from `start` to the one holding lo */
		rw->ws = rw->we;
		rw->we = window_end(rw, rw->ws);
	} while (rw->we <= lo && rw->we < size && !rw->err);
	check_window(rw);
	if (rw->err || !rw->invalid)
		return WINDOW_NONE;
	rw->at = lo;
	return rw->ws;
}

void records_windows_mark(struct records_windows *rw)
{
	records_window(rw->out, rw->ws, rw->we);
}

/* Writes the window's lines from rw->at, before `to` (a line start
 * numbered `lineno`), as 'c' records (owned by the range: they are past
 * lo): as many as the pending after-contexts of the lines not valid UTF-8
 * after them in the window can print, -A lines each, from the end of a
 * line output (the range records it: rw->at is just past one, or the
 * window's start). */
static void write_lines(struct records_windows *rw, uint64_t to, intmax_t lineno)
{
	while (rw->next_bad < rw->n_bad && rw->bad[rw->next_bad] < to)
		rw->next_bad++;
	/* from lo, also the -A lines the range before it records after it */
	size_t later = rw->n_bad - rw->next_bad, spans = later + (later > 0 && rw->at == rw->lo);
	intmax_t most = spans == 0 ? 0 : rw->after > INTMAX_MAX / (intmax_t)spans ? INTMAX_MAX
				       : rw->after * (intmax_t)spans;
	const char *p = rw->buf + (rw->at - rw->ws), *end = rw->buf + (to - rw->ws);
	for (const char *q = p; (q = memchr(q, rw->eol, (size_t)(end - q))) != NULL; q++)
		lineno--;
	for (intmax_t n = 0; p < end && n < most; n++) {
		const char *e = memchr(p, rw->eol, (size_t)(end - p));
		size_t len = (size_t)(e - p) + 1;
		records_line(rw->out, 'c', rw->ws + (uint64_t)(p - rw->buf), lineno++, rw->counted, p, len);
		p += len;
	}
}

void records_windows_line(void *ctx, const struct sink_line *line)
{
	struct records_windows *rw = ctx;
	if (rw->err)
		return;
	window_to(rw, line->offset);
	if (line->offset < rw->ws || line->offset >= rw->we)
		return; /* past the file's size at open: no window of one run */
	if (!rw->checked) {
		check_window(rw);
		if (rw->invalid)
			records_window(rw->out, rw->ws, rw->we);
	}
	if (rw->invalid && rw->at < line->offset)
		write_lines(rw, line->offset, line->lineno);
	rw->at = line->offset + line->len;
}

int records_windows_end(struct records_windows *rw)
{
	free(rw->buf);
	free(rw->bad);
	rw->buf = NULL;
	rw->bad = NULL;
	return rw->err;
}
