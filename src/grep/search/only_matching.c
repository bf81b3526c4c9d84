/* SPDX-License-Identifier: MIT */
/* only_matching.c - printed_matches_each, the walk of a line's printed
 * matches (only_matching.h) through a caller's function.
 */
#include "only_matching.h"

/* printed_matches_each's walk: the line and the caller's function. */
struct printed_walk {
	const struct printed_line *line;
	printed_match_fn print;
	void *ctx;
};

static int walk_match(const struct matcher_hit *hit, void *ctx)
{
	const struct printed_walk *w = ctx;
	return printed_match_step(w->line, hit, w->print, w->ctx);
}

int printed_matches_each(const struct printed_line *pl, const char *line, size_t len,
			 printed_match_fn print, void *ctx)
{
	struct printed_walk w = { .line = pl, .print = print, .ctx = ctx };
	return printed_matches_scan(pl, line, len, walk_match, &w);
}
