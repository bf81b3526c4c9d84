/* SPDX-License-Identifier: MIT */
/* search.h - one input, from its windows of lines to the events of its
 * output.
 *
 * Owns: turning match positions into selected lines and everything grep
 * decides per input: -v, -m, the matches -o outputs, context (-A/-B/-C)
 * with group breaks, line numbers and byte offsets, and what a binary
 * input changes (the rule itself is binary.h's).  Emits events to a sink
 * (sink.h): the lines or matches to output, in order; tells its summary
 * (summary.h: -c, -l, -L, -q, per-key tallies, statistics) of the lines
 * selected, and stops when the summary says the answer is known.  Knows
 * nothing of how bytes were read (input.c), of formats (print.c) or of
 * the engine behind the matcher.  search.c has the input's window loop,
 * search_lines.c the lines of one window.
 */
#ifndef ACGREP_SEARCH_H
#define ACGREP_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "input/input.h"
#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "search_options.h"
#include "sink.h"
#include "stats.h"
#include "tally.h"

/* State shared by the inputs one thread searches. */
struct searcher {
	const struct search_options *opt;
	const struct matcher *matcher;
	/* This thread's memo for counting matcher's matches (--count-matches),
	 * NULL until the matcher makes one; its thread frees it
	 * (matcher_memo_free). */
	struct matcher_memo *memo;
	const struct pattern_keys *keys; /* NULL unless pattern_keys_wanted */
	struct tally *tally; /* this thread's per-key counts, NULL unless tally_wanted */
	struct sink sink;  /* receives the events of every input searched */
	bool used;        /* something was output (group separators span files) */
	bool dev_null;    /* stdout is /dev/null: the first selected line decides */
	/* Inputs searched out of order (worker threads): asked, when the first
	 * group of an input might need a separator and `used` is false,
	 * whether inputs before it output anything; it may wait until they are
	 * done.  NULL: `used` alone decides. */
	bool (*output_before)(void *ctx);
	void *output_before_ctx;
	/* Set by another thread when the result is no longer wanted: the search
	 * stops at its next window.  NULL: never. */
	const atomic_bool *cancel;
	/* When statistics are kept (opt->stats): this thread's set of the
	 * patterns named in the input being searched (empty between inputs);
	 * NULL otherwise. */
	struct patterns_seen *seen;
};

struct search_result {
	intmax_t selected;     /* selected lines (after -m) */
	bool binary_matched;   /* print "binary file matches" */
	bool read_error;       /* errno in read_errno */
	int read_errno;
	const char *read_why;  /* what read_errno cannot say (input_error), or NULL */
	bool truncated;        /* the mapped file shrank (SIGBUS) where the search
				  could not go on with read(): output past
				  where it was last saved was handed on already */
	uint64_t stop_offset;  /* -m ended the search: input offset just past the
				  last selected line; UINT64_MAX otherwise */
	bool binary;           /* the input was binary by its end */
	bool without_match;    /* ... and --binary-files=without-match dropped it */
	bool done;             /* stopped before the end: the answer was known
				  (-l, -L, -q, -m, a binary file's first match) */
	bool used;             /* this input set searcher.used */
	intmax_t lines;        /* the input's line terminators (-n; 0 without it)
				  when the search read it to its end, else -1 */
	struct tally_rows tally; /* with searcher.tally: the keys' rows (owned) */
	struct search_stats stats; /* when opt->stats (stats.h) */
	struct pattern_ids seen;   /* ... the patterns its matches named; the
				      caller frees it (pattern_ids_free) */
};

/* -T pads -n and -b numbers to the width GNU grep uses: the digits of a
 * regular file's size (plus one with -n), or of INTMAX_MAX for a pipe or
 * device (size UINT64_MAX). */
int search_number_width(uint64_t size, bool line_number);

/* Searches one opened input whose display name is `name`: its events go to
 * the searcher's sink (begin, lines or matches and group breaks, end).
 * `binary_from_start`: treat the input as binary from its first byte (the
 * rest of a file in which an earlier part met a NUL).  Never exits; errors
 * are returned in *res. */
void search_input(struct searcher *s, struct input *in, const char *name, bool binary_from_start,
		  struct search_result *res);

#endif
