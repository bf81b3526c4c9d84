/* json.h - --json: a search's events as ripgrep's JSON Lines records.
 *
 * Owns: the records and the order of their fields, as ripgrep 13 writes
 * them: per input that outputs a line, "begin", then a "match" per
 * selected line and a "context" per context line (no group separators),
 * then "end" with the input's statistics; at the end of the run one
 * "summary".  acgrep's extension: every submatch names its pattern,
 * "pattern" (its 1-based number in the list as given) and "tag" (its tag,
 * or its text); the summary counts lines searched and patterns.  The
 * records are written into the printer's buffer, so that worker threads'
 * output is held and committed in order as the printer's is.  Which lines
 * are output is the search's; text encoding is json_text.c's.
 */
#ifndef ACGREP_JSON_H
#define ACGREP_JSON_H

#include "print.h"
#include "search/sink.h"
#include "search/stats.h"

/* The run's sink over printer pr: under --json the JSON records, else
 * grep's formats (printer_sink).  Returns 0, or -1 when out of memory.
 * What it allocates is freed by printer_free. */
int output_sink(struct printer *pr, struct sink *sink);

/* Frees the JSON sink's state (NULL: nothing). */
void json_state_free(struct json_state *js);

/* The "summary" record of the run's statistics. */
void json_summary(struct printer *pr, const struct run_stats *rs);

#endif
