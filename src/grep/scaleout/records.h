/* SPDX-License-Identifier: MIT */
/* records.h - the record stream of a --records job, written and read.
 *
 * Owns: the format (man acgrep(1), RECORD STREAMS).  A stream is text, one
 * record a line, each a letter and fields parted by single spaces; a name
 * or a line's bytes come last on their record, with backslash written
 * "\\" and newline "\n", so no record spans lines: a prefix a tool puts
 * before every line (GNU parallel's --tag: "TAG<TAB>") is recognised on
 * the header line and taken off the lines after it.
 *
 *   acgrep-records 2 OPTIONS       header: the search options (RECORDS_OPTIONS_MAX)
 *   F LO HI SIZE FLAGS NAME        a range of file NAME: its lines starting
 *                                  in [LO, HI); HI '*' for a whole input;
 *                                  SIZE '-' when not a regular file; FLAGS
 *                                  'c' an operand, 'l' from --files-from
 *   L KIND OFFSET LINENO LEN BYTES a line of it: KIND 's' selected, 'c'
 *                                  context, 'n' next to the range (context
 *                                  another range decides); LINENO counted
 *                                  from the range's first line as 1 ('-'
 *                                  without -n); LEN bytes, terminator kept
 *   B START END                    one run's read window [START, END): its
 *                                  lines follow as L records up to the last
 *                                  line the range records in it (with -A in
 *                                  a UTF-8 locale, a window not valid UTF-8;
 *                                  records_windows.h)
 *   E LINES SELECTED FLAGS ERRNO WHY  the range's end: its line terminators
 *                                  ('-' when not counted), selected lines
 *                                  (or -c's count), FLAGS from "dbwmut"
 *                                  (stopped early, binary, dropped by -I,
 *                                  binary file matches, set 'used', file
 *                                  shrank), a read error's errno and text
 *   O ERRNO START END FLAGS NAME   an input not searched: open error, or
 *                                  skipped (ERRNO 0); the range asked for
 *                                  (END '*': to the end)
 *   W ERRNO NAME                   an error of the -r walk
 *   Z COUNT                        the end: COUNT F, O and W records
 *
 * Records of one stream come in the order the job met them; a stream may
 * hold several jobs' streams one after another.
 */
#ifndef ACGREP_RECORDS_H
#define ACGREP_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/outbuf.h"
#include "search/search.h"
#include "search/sink.h"

#define RECORDS_MAGIC "acgrep-records"
#define RECORDS_VERSION 2

/* The longest OPTIONS of a header, with its NUL.  They are the options a
 * stream's records depend on: -i -w -x -v -z -c --count-matches
 * --overlapping -l -L -q -n -m -A -B, the binary-file mode, a UTF-8 locale
 * and the pattern list's fingerprint, written by src/cli/narrow.c
 * (scaleout_options.header).  A merge must be run with the same ones
 * (output options such as -o, -b, -H, --color are the merge's alone). */
#define RECORDS_OPTIONS_MAX 192

/* ---- writing (range.c's job), into the output buffer out ---- */

/* The header, of the search options `options` (scaleout_options.header). */
void records_header(struct outbuf *out, const char *options);

/* F: hi UINT64_MAX for a whole input, size UINT64_MAX when not regular. */
void records_file(struct outbuf *out, const char *name, uint64_t lo, uint64_t hi, uint64_t size,
		  bool command_line, bool listed);

/* L: kind 's', 'c' or 'n'; lineno 0 when not counted (no -n). */
void records_line(struct outbuf *out, char kind, uint64_t offset, intmax_t lineno, bool counted,
		  const char *bytes, size_t len);

/* B: one run's read window [start, end). */
void records_window(struct outbuf *out, uint64_t start, uint64_t end);

/* E from a search's result: lines_known says whether res->lines counts
 * the whole range's terminators. */
void records_end(struct outbuf *out, const struct search_result *res, bool lines_known);

/* O: the range asked for, [start, end) (end UINT64_MAX: to the end). */
void records_not_searched(struct outbuf *out, const char *name, int err, uint64_t start,
			  uint64_t end, bool command_line, bool listed);
void records_walk_error(struct outbuf *out, const char *path, int err);
void records_trailer(struct outbuf *out, uint64_t count);

/* A sink (sink.h) writing each line it is handed as an L record into
 * out; lineno of line events is taken as counted from the range's start
 * when `counted`.  Group breaks and -o matches are not written (a merge
 * decides them).  `before`, when not NULL, is called with `before_ctx`
 * and each line before its record is written.  Valid while out is. */
struct records_sink {
	struct outbuf *out; /* first: see outbuf_of */
	bool counted;
	void (*before)(void *ctx, const struct sink_line *line);
	void *before_ctx;
};
struct sink records_sink(struct records_sink *rs, struct outbuf *out, bool counted);

/* Writes s[0..len) with backslash and newline escaped. */
void records_escaped(struct outbuf *out, const char *s, size_t len);

/* Undoes records_escaped: writes the bytes of esc[0..esc_len) to out (room
 * for esc_len bytes).  Returns their number, or SIZE_MAX when esc holds
 * a backslash that does not start "\\" or "\n". */
size_t records_unescape(const char *esc, size_t esc_len, char *out);

#endif
