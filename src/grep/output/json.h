/* SPDX-License-Identifier: MIT */
/* json.h - --json: a search's events as ripgrep's JSON Lines records.
 *
 * Owns: the records and the order of their fields, as ripgrep 13 writes
 * them: per input that outputs a line, "begin", then a "match" per
 * selected line and a "context" per context line (no group separators),
 * then "end" with the input's statistics; at the end of the run one
 * "summary".  acgrep's extension: every submatch names its pattern,
 * "pattern" (its 1-based number in the list as given) and "tag" (its tag,
 * or its text); the summary counts lines searched and patterns.  The
 * records are written into an output buffer (outbuf.h), so that worker
 * threads' output is held and committed in order as the printer's is.
 * Which lines are output is the search's; text encoding is json_text.c's.
 */
#ifndef ACGREP_JSON_H
#define ACGREP_JSON_H

#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "outbuf.h"
#include "print_options.h"
#include "search/sink.h"
#include "search/stats.h"

struct printer;

/* The JSON writer: an input's path and begin record, the tags encoded. */
struct json_writer;

/* A JSON writer over out (which outlives it) for the run's options, the
 * matcher that finds a context line's submatches and the run's pattern
 * names (NULL: none).  NULL when out of memory. */
struct json_writer *json_writer_new(struct outbuf *out, const struct print_options *opt,
				    const struct matcher *m, const struct pattern_keys *keys);

/* Frees a writer (NULL: nothing). */
void json_writer_free(struct json_writer *jw);

/* The writer as the receiver of a search's events (sink.h): the records.
 * Valid while jw is. */
struct sink json_sink(struct json_writer *jw);

/* The run's sink: under --json a JSON writer over pr's output buffer
 * (*json, which its caller frees with json_writer_free), else the printer
 * (printer_sink; *json is NULL).  Returns 0, or -1 when out of memory. */
int output_sink(struct printer *pr, struct json_writer **json, struct sink *sink);

/* The "summary" record of the run's statistics. */
void json_summary(struct outbuf *out, const struct run_stats *rs);

#endif
