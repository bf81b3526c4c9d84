/* SPDX-License-Identifier: MIT */
/* context.h - GNU grep 3.8's context rule, one for the search
 * (search_lines.c) and --merge (scaleout/merge.c): which lines are output
 * around the selected ones, where groups part, when -m's trailing context
 * ends an input.
 *
 * The state is three figures over input offsets: the end of the last
 * line output, the after-context lines still owed, the selected lines -m
 * still allows.  The rule:
 *   - a selected line's before-context is up to -B lines back, none at or
 *     before the last line output;
 *   - a group separator comes before a group that does not follow the
 *     last output (whenever -A/-B/-C was given, even as 0), once anything
 *     was output (earlier inputs count, and selected lines not printed);
 *   - a selected line, output or left out for its encoding, starts -A
 *     lines of after-context; an after-context line left out for its
 *     encoding ends it (grep retries the same line until the count runs
 *     out);
 *   - owed after-context resumes in a read window after the last output,
 *     or at the window's start (grep's buffers: a line one window left
 *     out is not looked at again);
 *   - after -m selected lines only the owed after-context is output, and
 *     the input ends when none is owed.
 * The callers walk lines their own way (a window of the input, or the
 * lines of records) and ask here at each step.  All static inline: the
 * search inlines it line by line.
 */
#ifndef ACGREP_CONTEXT_H
#define ACGREP_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "search_options.h"

/* No line output yet. */
#define CONTEXT_NONE UINT64_MAX

struct context {
	uint64_t lastout;  /* input offset just past the last line output, or CONTEXT_NONE */
	intmax_t pending;  /* after-context lines still to output */
	intmax_t outleft;  /* selected lines -m still allows */
};

/* Whether -A, -B or -C was given (even as 0): groups part. */
static inline bool context_on(const struct search_options *opt)
{
	return opt->before >= 0 || opt->after >= 0;
}

/* An input's state before its first line. */
static inline struct context context_begin(const struct search_options *opt)
{
	return (struct context){
		.lastout = CONTEXT_NONE,
		.pending = 0,
		.outleft = opt->max_count < 0 ? INTMAX_MAX : opt->max_count,
	};
}

/* The start of the line that ends at input offset `end`, or CONTEXT_NONE
 * when the caller does not know it. */
typedef uint64_t (*context_line_before_fn)(void *ctx, uint64_t end);

/* Where the before-context of the selected line starting at `at` starts:
 * up to opt->before lines back (line_before steps back one), none before
 * the last line output nor before `floor` (the first line the caller
 * holds).  `at` itself when there is none; CONTEXT_NONE when line_before
 * did not know a line the rule needs.  Pass a function's name as
 * line_before, so that it is inlined. */
static inline uint64_t context_before_start(const struct context *c,
					    const struct search_options *opt, uint64_t at, uint64_t floor,
					    context_line_before_fn line_before, void *ctx)
{
	uint64_t lo = c->lastout != CONTEXT_NONE && c->lastout > floor ? c->lastout : floor;
	uint64_t p = at;
	for (intmax_t n = 0; n < opt->before && p > lo; n++)
		if ((p = line_before(ctx, p)) == CONTEXT_NONE)
			return CONTEXT_NONE;
	return p;
}

/* Whether a group that starts at input offset `first` is apart from the
 * output before it: then a group separator comes before it, when anything
 * was output before (the caller's to tell: a search asks its run). */
static inline bool context_apart(const struct context *c, const struct search_options *opt,
				 uint64_t first)
{
	return context_on(opt) && opt->group_separator && first != c->lastout;
}

/* A line was output, ending at input offset `end`. */
static inline void context_output(struct context *c, uint64_t end)
{
	c->lastout = end;
}

/* A selected line was output or left out for its encoding: its
 * after-context is owed. */
static inline void context_selected(struct context *c, const struct search_options *opt)
{
	c->pending = opt->after > 0 ? opt->after : 0;
}

/* Where owed after-context resumes in a read window whose first new line
 * starts at input offset window_start (grep's prpending): after the last
 * line output, or at the window's start when that is later; with nothing
 * output yet, the window's start counts as the last output. */
static inline uint64_t context_pending_from(struct context *c, uint64_t window_start)
{
	if (c->lastout == CONTEXT_NONE)
		c->lastout = window_start;
	return c->lastout > window_start ? c->lastout : window_start;
}

/* An owed after-context line was output (`printed`), or left out for its
 * encoding, which ends the after-context. */
static inline void context_after_line(struct context *c, bool printed)
{
	c->pending = printed ? c->pending - 1 : 0;
}

/* Counts a selected line against -m: true when it was the last -m allows. */
static inline bool context_count_selected(struct context *c)
{
	return --c->outleft <= 0;
}

/* -m's count is reached and no after-context is owed: the input is done. */
static inline bool context_finished(const struct context *c)
{
	return c->outleft <= 0 && c->pending <= 0;
}

#endif
