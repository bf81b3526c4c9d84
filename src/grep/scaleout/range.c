/* SPDX-License-Identifier: MIT */
/* range.c - byte ranges of regular files and the inputs of a --records
 * job (see range.h).
 *
 * A range is searched as an input of its own (input_open_range: offsets
 * stay the file's), on the calling thread.  A --records job searches
 * without -o (a merge finds the matches of the lines it prints) and
 * without the encoding check of a UTF-8 locale (a merge must see every
 * line to decide what one run prints around a line it leaves out), but
 * with one run's windows (input_read_windows where one run asks for them),
 * so that a NUL byte turns the same lines binary.  With context, it adds
 * the -B lines before its range and the -A lines after it, which the
 * neighbouring ranges own.
 */
#include "range.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "records.h"
#include "records_windows.h"
#include "scaleout_options.h"

/* First bytes read when looking for line ends; doubled as needed. */
#define SCAN_CHUNK ((size_t)64 << 10)

/* pread of n bytes, short only at the file's end.  Returns the bytes
 * read, or -1 with errno set. */
static ssize_t pread_full(int fd, char *buf, size_t n, uint64_t at)
{
	size_t done = 0;
	while (done < n) {
		ssize_t got = pread(fd, buf + done, n - done, (off_t)(at + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		done += (size_t)got;
	}
	return (ssize_t)done;
}

int range_line_start(int fd, uint64_t at, char eol, uint64_t *out)
{
	if (at == 0) {
		*out = 0;
		return 0;
	}
	char buf[16384];
	for (uint64_t pos = at - 1;;) {
		ssize_t got = pread_full(fd, buf, sizeof buf, pos);
		if (got < 0)
			return -1;
		const char *e = memchr(buf, eol, (size_t)got);
		if (e || (size_t)got < sizeof buf) {
			*out = e ? pos + (uint64_t)(e - buf) + 1 : pos + (uint64_t)got;
			if (*out < at) /* the file ends before `at` */
				*out = at;
			return 0;
		}
		pos += (uint64_t)got;
	}
}

int range_lines_before(int fd, uint64_t lo, size_t n, char eol, struct range_lines *out)
{
	*out = (struct range_lines){ .buf = out->buf, .offset = lo };
	for (size_t want = SCAN_CHUNK; n > 0 && lo > 0; want *= 2) {
		uint64_t from = lo > want ? lo - want : 0;
		size_t len = (size_t)(lo - from);
		char *buf = realloc(out->buf, len);
		if (!buf)
			return -1;
		out->buf = buf;
		if (pread_full(fd, buf, len, from) != (ssize_t)len) {
			errno = errno ? errno : EIO;
			return -1;
		}
		/* the n-th terminator before the one ending the last line */
		size_t end = len - 1, found = 0;
		const char *e = NULL;
		while (found < n && (e = memrchr(buf, eol, end)) != NULL) {
			found++;
			end = (size_t)(e - buf);
		}
		if (found == n || from == 0) {
			size_t start = found == n ? end + 1 : 0;
			memmove(buf, buf + start, len - start);
			out->len = len - start;
			out->offset = from + start;
			return 0;
		}
	}
	return 0;
}

int range_lines_after(int fd, uint64_t hi, size_t n, char eol, struct range_lines *out)
{
	*out = (struct range_lines){ .buf = out->buf, .offset = hi };
	for (size_t want = SCAN_CHUNK; n > 0; want *= 2) {
		char *buf = realloc(out->buf, want);
		if (!buf)
			return -1;
		out->buf = buf;
		ssize_t got = pread_full(fd, buf, want, hi);
		if (got < 0)
			return -1;
		size_t end = 0, found = 0;
		const char *e;
		while (found < n && (e = memchr(buf + end, eol, (size_t)got - end)) != NULL) {
			found++;
			end = (size_t)(e - buf) + 1;
		}
		if (found == n || (size_t)got < want) {
			out->len = found == n ? end : (size_t)got;
			return 0;
		}
	}
	return 0;
}

bool range_begin(struct run *r)
{
	if (r->searcher.matcher->spans_eol) {
		fputs("acgrep: --range and --records cannot search for patterns holding the line "
		      "terminator (-z with a NUL in a pattern)\n", stderr);
		return false;
	}
	if (r->scaleout->records)
		records_header(&r->out, r->scaleout->header);
	return true;
}

/* A read error of the range's own, unless it has one already. */
static void note_read_error(struct search_result *res, int err)
{
	if (!res->read_error) {
		res->read_error = true;
		res->read_errno = err ? err : EIO;
		res->read_why = NULL;
	}
}

/* The lines of `lines` as 'n' records, numbered from `first` (counted or
 * not), with the B record of window rw before the line at window_at
 * (WINDOW_NONE: none; the lines' end: after them). */
static void neighbour_records(struct run *r, const struct range_lines *lines, intmax_t first,
			      bool counted, struct records_windows *rw, uint64_t window_at)
{
	char eol = r->scaleout->eol;
	for (size_t p = 0; p <= lines->len; first++) {
		if (window_at == lines->offset + p) {
			records_windows_mark(rw);
			window_at = WINDOW_NONE;
		}
		if (p == lines->len)
			break;
		const char *e = memchr(lines->buf + p, eol, lines->len - p);
		size_t end = e ? (size_t)(e - lines->buf) + 1 : lines->len;
		records_line(&r->out, 'n', lines->offset + p, first, counted, lines->buf + p, end - p);
		p = end;
	}
}

/* The lines [from, lo) of the file open on fd into *out (from malloc).
 * Returns 0, or -1 with errno set. */
static int lines_from(int fd, uint64_t from, uint64_t lo, struct range_lines *out)
{
	size_t len = (size_t)(lo - from);
	char *buf = realloc(out->buf, len ? len : 1);
	if (!buf)
		return -1;
	*out = (struct range_lines){ .buf = buf, .len = len, .offset = from };
	if (pread_full(fd, buf, len, from) != (ssize_t)len) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

/* Searches `whole` or, when ranged, its lines starting in [lo, hi), into
 * *res: for grep's output through the run's searcher, or as L records
 * through a searcher of the job's own (see the top of this file). */
static void search_part(struct run *r, struct input *whole, bool ranged, uint64_t lo, uint64_t hi,
			const char *name, struct records_windows *rw, struct search_result *res)
{
	const struct scaleout_options *so = r->scaleout;
	*res = (struct search_result){ .stop_offset = UINT64_MAX, .lines = 0 };
	struct searcher job = r->searcher, *s = &r->searcher;
	struct search_options job_opt; /* the job's search: see the top of this file */
	struct records_sink rs;
	if (so->records) {
		job_opt = *r->searcher.opt;
		job_opt.only_matching = false;
		job_opt.utf8_locale = false;
		job.opt = &job_opt;
		job.sink = records_sink(&rs, &r->out, so->line_number);
		rs.before = rw ? records_windows_line : NULL;
		rs.before_ctx = rw;
		job.used = false;
		job.dev_null = false;
		s = &job;
	}
	struct input part, *in = whole;
	if (ranged) {
		if (lo >= hi)
			return; /* no line starts in it */
		struct input_options io = r->opt->input;
		if (input_open_range(&part, whole, lo, hi, &io) != 0) {
			note_read_error(res, errno);
			return;
		}
		in = &part;
	}
	bool context = so->before >= 0 || so->after >= 0;
	if (so->records && so->encoding_checked && context && so->prints_lines)
		input_read_windows(in); /* as search.c does where it checks encodings */
	search_input(s, in, name, false, res);
	if (ranged)
		input_close(&part);
}

/* The records of a searched input: F, the -B lines before its range (and
 * those of one run's window holding its first line when that window is
 * written whole: records_windows.h), its lines, the -A lines after it, E. */
static void record_input(struct run *r, struct input *whole, bool ranged, uint64_t lo, uint64_t hi,
			 const char *name, bool command_line, struct search_result *res)
{
	const struct scaleout_options *so = r->scaleout;
	char eol = so->eol;
	bool context = ranged && so->prints_lines;
	records_file(&r->out, name, lo, ranged ? hi : UINT64_MAX,
		     whole->is_regular ? whole->size_at_open : UINT64_MAX, command_line, so->listed);
	r->records++;
	struct records_windows rw;
	bool windows = records_windows_wanted(so) && whole->is_regular && lo < hi;
	size_t chunk = input_read_size(&r->opt->input);
	uint64_t first = windows ? records_windows_begin(&rw, r->searcher.opt, chunk, &r->out, whole->fd,
							 whole->size_at_open, lo)
				 : WINDOW_NONE;
	struct range_lines around = { .offset = lo };
	int err = 0;
	if (context && so->before > 0 && lo > 0 && lo < hi &&
	    range_lines_before(whole->fd, lo, (size_t)so->before, eol, &around) != 0)
		err = errno;
	if (!err && first < (around.len ? around.offset : lo) && lines_from(whole->fd, first, lo, &around) != 0)
		err = errno;
	if (!err && (around.len > 0 || first != WINDOW_NONE)) {
		intmax_t n = 0; /* the terminators in the lines (buf may be NULL when none) */
		for (size_t at = 0; at < around.len; at++)
			n += around.buf[at] == eol;
		neighbour_records(r, &around, 1 - n, so->line_number, &rw, first);
	}
	search_part(r, whole, ranged, lo, hi, name, windows ? &rw : NULL, res);
	/* the lines after the range matter only when the search got to its end */
	bool counted = so->line_number && res->lines >= 0 && !res->read_error && !res->truncated;
	if (!err && context && so->after > 0 && res->lines >= 0) {
		if (range_lines_after(whole->fd, hi, (size_t)so->after, eol, &around) != 0)
			err = errno;
		neighbour_records(r, &around, res->lines + 1, counted, NULL, WINDOW_NONE);
	}
	free(around.buf);
	if (windows && records_windows_end(&rw) != 0 && !err)
		err = rw.err;
	if (err)
		note_read_error(res, err);
	records_end(&r->out, res, counted);
	r->stop = so->quiet && res->selected > 0;
}

/* The range of an opened input: false after saying why it has none. */
static bool find_range(struct run *r, const struct input *whole, const char *name, uint64_t *lo,
		       uint64_t *hi)
{
	const struct scaleout_options *so = r->scaleout;
	const char *why = NULL;
	if (!whole->is_regular || !whole->owns_fd || whole->decomp)
		why = "--range needs a regular file named as an operand";
	else if (range_line_start(whole->fd, so->range_start, so->eol, lo) != 0 ||
		 (so->range_end == RANGE_TO_END ? (*hi = whole->size_at_open, false)
		  : range_line_start(whole->fd, so->range_end, so->eol, hi) != 0))
		why = strerror(errno);
	if (!why) {
		*lo = *lo < whole->size_at_open ? *lo : whole->size_at_open;
		*hi = *hi < whole->size_at_open ? *hi : whole->size_at_open;
		*hi = *hi > *lo ? *hi : *lo;
		return true;
	}
	outbuf_flush(&r->out);
	fprintf(stderr, "acgrep: %s: %s\n", name, why);
	r->trouble = true;
	return false;
}

int range_search_path(const char *path, struct dir_ref *dir, bool command_line, bool plain,
		      void *ctx)
{
	(void)plain; /* ranges read the file from where they start: opened with its fstat */
	struct run *r = ctx;
	const struct scaleout_options *so = r->scaleout;
	const char *name = run_display_name(r->opt, path);
	struct input whole;
	int err;
	enum open_outcome outcome = run_open(r, path, dir, command_line, false, &whole, &err);
	if (outcome != OPEN_SEARCH) {
		if (so->records && outcome != OPEN_IS_OUTPUT) {
			records_not_searched(&r->out, name, outcome == OPEN_FAILED ? err : 0,
					     so->range_start, so->range_end, command_line, so->listed);
			r->records++;
		} else {
			run_report_open(r, name, command_line, outcome, err);
		}
		return r->stop;
	}
	uint64_t lo = 0, hi = UINT64_MAX;
	if (so->has_range && !find_range(r, &whole, name, &lo, &hi)) {
		input_close(&whole);
		return r->stop;
	}
	struct search_result res;
	if (so->records) {
		record_input(r, &whole, so->has_range, lo, hi, name, command_line, &res);
	} else {
		r->pr.show_name = run_shows_name(r->opt, command_line);
		search_part(r, &whole, true, lo, hi, name, NULL, &res);
	}
	input_close(&whole);
	if (!so->records)
		run_report_result(r, name, &res);
	return r->stop;
}

void range_walk_error(const char *path, int err, void *ctx)
{
	struct run *r = ctx;
	if (!r->scaleout->records) {
		run_walk_error(path, err, r);
		return;
	}
	records_walk_error(&r->out, path, err);
	r->records++;
}

void range_end(struct run *r)
{
	if (r->scaleout->records && !r->trouble)
		records_trailer(&r->out, r->records);
}
