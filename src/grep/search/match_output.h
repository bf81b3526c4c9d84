/* SPDX-License-Identifier: MIT */
/* match_output.h - -o's output of one line: the matches grep prints
 * (only_matching.h), each through the binary rule (binary.h) to a sink
 * (sink.h).
 *
 * Owns the one emitter of -o matches, for the search (search_lines.c) and
 * --merge (scaleout/merge.c): a matching line (a selected one, or a
 * context line under -v) outputs its printed matches in order; a match
 * the binary rule refuses (an encoding error) ends the line's output, and
 * the line then does not count as output.
 */
#ifndef ACGREP_MATCH_OUTPUT_H
#define ACGREP_MATCH_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "binary.h"
#include "match/matcher.h"
#include "sink.h"

/* A line whose matches -o outputs, and where they go. */
struct match_output {
	const struct matcher *matcher;
	bool overlapping;        /* --overlapping: every occurrence */
	bool invert;             /* -v: the matching lines are the context ones */
	char eol;
	struct binary_policy *bin;
	const struct sink *sink;
	intmax_t lineno;         /* as sink_match's */
	uint64_t offset;         /* input offset of the line's first byte */
	enum sink_line_kind kind;
	uint64_t mark;           /* out: the sink's mark after the last match
				    output (unchanged when none was) */
};

/* Outputs the matches of line[0..len) (its terminator included, if it has
 * one) as o says, when it is a matching line; nothing for another.
 * Returns false when the binary rule refused a match. */
bool match_output_line(struct match_output *o, const char *line, size_t len);

#endif
