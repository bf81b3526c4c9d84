/* SPDX-License-Identifier: MIT */
/* range.h - searching byte ranges of regular files (--range), and every
 * input of a --records job.
 *
 * Owns: the boundary rule of --range=START:END: the range holds the lines
 * that start at a byte offset in [START, END).  It begins at the first line
 * start at or after START (0, or just past a line terminator) and ends at
 * the first line start at or after END, so its last line is the one that
 * holds byte END-1; ranges that tile [0, size) hold every line of the file
 * exactly once, whatever their cuts.  Also the lines just outside a range
 * that a merge needs as context (up to -B lines before it, -A after), and
 * the job's side of a --records run: what each input becomes in the record
 * stream (records.h writes it).  A plain --range prints grep's output for
 * the range alone (-b offsets are the file's; -n is refused by opts).
 * Nothing here counts the lines before a range: --merge numbers lines from
 * each range's own count, so that N ranges cost one pass over the file in
 * all, not one pass over its prefix each.
 */
#ifndef ACGREP_RANGE_H
#define ACGREP_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/* The first line start at or after file offset `at` of the file open on
 * fd, lines ending in eol: 0 for 0, `at` itself when byte at-1 is eol,
 * else just past the first eol after it, or the file's end when there is
 * none.  Returns 0 with *out set, or -1 with errno set (read error). */
int range_line_start(int fd, uint64_t at, char eol, uint64_t *out);

/* Consecutive whole lines of a file: buf[0..len) holds them, from file
 * offset `offset`; buf NULL or from malloc, the caller's to free.  The
 * functions below fill an initialised one, reusing its buf. */
struct range_lines {
	char *buf;
	size_t len;
	uint64_t offset;
};

/* The last n lines before line start lo (fewer at the file's start).
 * Returns 0, or -1 with errno set. */
int range_lines_before(int fd, uint64_t lo, size_t n, char eol, struct range_lines *out);

/* The first n lines at and after line start hi (fewer at the file's end,
 * the last maybe without its terminator).  Returns 0, or -1 with errno. */
int range_lines_after(int fd, uint64_t hi, size_t n, char eol, struct range_lines *out);

/* Before the inputs of a --range or --records run: refuses patterns that
 * hold the line terminator (a match may span lines, which ranges cut),
 * and with --records writes the stream's header.  False after printing
 * why on stderr (the run's status is then 2). */
bool range_begin(struct run *r);

/* walk_file_fn of a --range or --records run (ctx is the run): opens the
 * input, finds its range, searches it on this thread, then reports it:
 * grep's output and report, or its records.  Returns r->stop. */
int range_search_path(const char *path, struct dir_ref *dir, bool command_line, bool plain,
		      void *ctx);

/* walk_error_fn of such a run: with --records a record, else as run.c. */
void range_walk_error(const char *path, int err, void *ctx);

/* After the inputs: with --records, the stream's end record, written only
 * when the job had no trouble of its own (a stream without it is refused
 * by --merge).  A --records job's exit status is then 0 when its stream
 * is whole, 2 otherwise: what the files hold, an unreadable one included,
 * is the merge's to report. */
void range_end(struct run *r);

#endif
