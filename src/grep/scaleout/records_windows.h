/* SPDX-License-Identifier: MIT */
/* records_windows.h - one run's read windows in a --records job: the
 * lines a merge needs where one run leaves a line out for its encoding.
 *
 * Owns: which read windows of one run over the whole file (input.c's
 * read_window_end: a window ends after the last line terminator before
 * the first multiple of the read size past its start that brings one in)
 * a job writes, and writing them.  In a UTF-8 locale with -A, a selected
 * line that is not valid UTF-8 is left out, and the after-context it
 * starts is printed from the line after the last one output, or from its
 * window's start (search_lines.c's flush_pending): lines no search would
 * record.  So for each window holding a line the job records, when the
 * window is not valid UTF-8, the job writes a B record (its bounds) and,
 * before each line it records there, the lines since the last one that
 * such after-contexts can print; the window of the range's first line
 * starts before the range when one run's does, and its lines before the
 * range are written as 'n' records.  Other windows cost two small preads
 * each, to find where they end.
 */
#ifndef ACGREP_RECORDS_WINDOWS_H
#define ACGREP_RECORDS_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/outbuf.h"
#include "scaleout_options.h"
#include "search/binary.h"
#include "search/search_options.h"
#include "search/sink.h"

/* No window (records_windows_begin's result when none is written). */
#define WINDOW_NONE UINT64_MAX

/* The windows of one input of a job.  Valid while its output buffer and file. */
struct records_windows {
	struct outbuf *out;
	int fd;
	char eol;
	uint64_t chunk;          /* one run's read size */
	uint64_t size;           /* the file's size at open */
	uint64_t lo;             /* the range's first line */
	bool counted;            /* -n: lines carry numbers */
	intmax_t after;          /* -A */
	uint64_t ws, we;         /* the current window [ws, we) */
	bool checked, invalid;   /* its encoding checked; not valid UTF-8 */
	uint64_t at;             /* its lines before `at` are written */
	struct binary_policy bin; /* the run's encoding check */
	char *buf;               /* its bytes, when checked */
	size_t cap;
	uint64_t *bad;           /* ... the starts of its lines not valid UTF-8 */
	size_t n_bad, bad_cap, next_bad; /* next_bad: the first after rw->at */
	int err;                 /* a read error's errno, or 0 */
};

/* Whether a job with options so writes windows: -A in a UTF-8 locale,
 * printing lines, and not -a. */
bool records_windows_wanted(const struct scaleout_options *so);

/* Starts the windows of the regular file open on fd (size bytes), read
 * `chunk` bytes at a time as the whole file's search reads it, whose
 * range's first line starts at lo.  Returns the start of one run's window
 * holding lo when that window is not valid UTF-8 (its lines before lo, from
 * the returned offset, are the caller's to write as 'n' records, with
 * records_windows_mark at the returned offset), else WINDOW_NONE. */
uint64_t records_windows_begin(struct records_windows *rw, const struct search_options *opt,
			       size_t chunk, struct outbuf *out, int fd, uint64_t size, uint64_t lo);

/* Writes the B record of the first window (the caller's lines reached
 * the offset records_windows_begin returned). */
void records_windows_mark(struct records_windows *rw);

/* records_sink's hook before line `line` is written: the window's lines
 * before it that are not written yet, and its B record. */
void records_windows_line(void *ctx, const struct sink_line *line);

/* Frees what rw holds; returns a read error's errno, or 0. */
int records_windows_end(struct records_windows *rw);

#endif
