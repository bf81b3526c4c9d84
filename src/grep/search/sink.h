/* SPDX-License-Identifier: MIT */
/* sink.h - the events of a search, and the interface that receives them.
 *
 * Owns: the contract between search.c, which decides per input what is
 * output (which lines, of which kind, where groups part), and whoever
 * turns that into output: the printer (print.c, grep's text formats) and
 * any later receiver (a JSON printer, a per-pattern counter).  A search
 * emits, for each input: begin, then lines (under -o their matches) and
 * group breaks in output order, then end.  Every line or match handed
 * over is one to output: the binary rule (binary.h) has passed it.
 * Nothing flows back into the search but marks (positions to rewind to)
 * and the answers of rewind and failed.
 */
#ifndef ACGREP_SINK_H
#define ACGREP_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

struct matcher_hit;

/* An input's search begins. */
struct sink_begin {
	const char *name;     /* display name ("(standard input)", --label) */
	int number_width;     /* -T: -n and -b numbers are padded to it; 0 = none */
};

enum sink_line_kind {
	SINK_SELECTED,        /* a selected line (a match, or none under -v) */
	SINK_CONTEXT,         /* a context line (-A, -B, -C) */
};

/* A line's matches as -o outputs them: the non-empty ones, in order, none
 * past the line's text (but a whole-line match that takes its terminator,
 * matcher.match_takes_eol); offsets from the line's start. */
struct sink_hits {
	const struct matcher_hit *v;
	size_t n;
};

/* A line to output whole (not under -o). */
struct sink_line {
	const char *bytes;    /* the line, with its terminator if it has one */
	size_t len;
	intmax_t lineno;      /* 1-based line number; 0 when not counted (no -n) */
	uint64_t offset;      /* input offset of bytes[0] (grep -b) */
	enum sink_line_kind kind;
	/* A selected line's matches when the search found them (statistics
	 * are kept: search_options.stats), else NULL: a receiver that needs them asks
	 * the matcher. */
	const struct sink_hits *hits;
};

/* -o: a match to output on its own, one of a line's in order. */
struct sink_match {
	const char *bytes;    /* the match */
	size_t len;
	intmax_t lineno;      /* its line's number, as sink_line's */
	uint64_t offset;      /* input offset of bytes[0] */
	enum sink_line_kind kind; /* its line's kind */
	bool takes_eol;       /* a whole-line match takes the line's terminator
				 (matcher.match_takes_eol) */
	uint32_t pattern;     /* its pattern's id (matcher_hit's) */
};

/* An input's search ended. */
struct sink_end {
	intmax_t selected;    /* selected lines (-c's count, --count-matches's) */
	bool binary;          /* the input was binary by its end */
	/* What the search counted (search_options.stats), else NULL. */
	const struct search_stats *stats;
	/* With stats: the input offset of the NUL byte that made the input
	 * binary (input_first_nul); UINT64_MAX when it did not turn binary. */
	uint64_t binary_offset;
};

/* line, match and group_break return the mark after them, as mark would:
 * a search that keeps a mark after every line (what it saves where it is
 * done with a mapped input's line) needs no second call per line for it. */
struct sink_ops {
	void (*begin)(void *ctx, const struct sink_begin *begin);
	uint64_t (*line)(void *ctx, const struct sink_line *line);
	uint64_t (*match)(void *ctx, const struct sink_match *match);
	/* The next line does not follow the last one output (in this input or
	 * an earlier one): grep's group separator goes here. */
	uint64_t (*group_break)(void *ctx);
	void (*end)(void *ctx, const struct sink_end *end);
	/* A position in the output from which rewind can take it back. */
	uint64_t (*mark)(void *ctx);
	/* Forgets what was received after `mark`: true.  False, and nothing
	 * changed, when part of it cannot be taken back (written already). */
	bool (*rewind)(void *ctx, uint64_t mark);
	/* What is received after `mark` is kept, so that rewind(mark)
	 * succeeds, until a later call (SINK_KEEP_NONE: nothing is kept). */
	void (*keep_from)(void *ctx, uint64_t mark);
	/* The output failed (a write error): the search stops. */
	bool (*failed)(void *ctx);
};

/* A receiver of events: ops (all set) called with ctx. */
struct sink {
	const struct sink_ops *ops;
	void *ctx;
};

static inline void sink_begin(const struct sink *s, const struct sink_begin *begin)
{
	s->ops->begin(s->ctx, begin);
}

static inline uint64_t sink_line(const struct sink *s, const struct sink_line *line)
{
	return s->ops->line(s->ctx, line);
}

static inline uint64_t sink_match(const struct sink *s, const struct sink_match *match)
{
	return s->ops->match(s->ctx, match);
}

static inline uint64_t sink_group_break(const struct sink *s)
{
	return s->ops->group_break(s->ctx);
}

static inline void sink_end(const struct sink *s, const struct sink_end *end)
{
	s->ops->end(s->ctx, end);
}

static inline uint64_t sink_mark(const struct sink *s)
{
	return s->ops->mark(s->ctx);
}

static inline bool sink_rewind(const struct sink *s, uint64_t mark)
{
	return s->ops->rewind(s->ctx, mark);
}

#define SINK_KEEP_NONE UINT64_MAX

static inline void sink_keep_from(const struct sink *s, uint64_t mark)
{
	s->ops->keep_from(s->ctx, mark);
}

static inline bool sink_failed(const struct sink *s)
{
	return s->ops->failed(s->ctx);
}

#endif
