/* SPDX-License-Identifier: MIT */
/* summary.c - the summary of one input's search (see summary.h): its
 * setup from the options, --count-matches' count of a line, its counts
 * saved and restored.
 */
#include "summary.h"

#include "only_matching.h"

struct summary summary_begin(const struct search_options *opt, const struct matcher *m,
			     struct matcher_memo **memo, struct tally *tally, struct summary_hook stats,
			     bool decides)
{
	if (memo)
		matcher_memo_restart(*memo);
	return (struct summary){
		.matcher = m,
		.memo = memo,
		.tally = tally,
		.invert = opt->invert,
		.count_matches = opt->count_matches && !opt->invert,
		.overlapping = opt->overlapping,
		.decides = decides,
		.whole_lines = opt->count_matches || tally || stats.selected,
		.stats = stats,
	};
}

static int count_printed(const struct matcher_hit *hit, bool takes_eol, void *ctx)
{
	(void)hit;
	(void)takes_eol;
	++*(intmax_t *)ctx;
	return 0;
}

/* summary_count_matches' count over one line: the matches -o prints. */
struct match_count {
	struct printed_line line;
	intmax_t n;
};

static int count_match(const struct matcher_hit *hit, void *ctx)
{
	struct match_count *c = ctx;
	return printed_match_step(&c->line, hit, count_printed, &c->n);
}

intmax_t summary_count_matches(const struct summary *s, const struct summary_line *line)
{
	const char *text = line->buf + line->ls;
	size_t len = line->le - line->ls;
	struct match_count c = {
		.line = printed_line_of(s->matcher, text, len, line->eol, s->overlapping),
		.n = 0,
	};
	intmax_t counted = printed_matches_count(&c.line, text, len, s->memo);
	if (counted >= 0)
		return counted;
	printed_matches_scan(&c.line, text, len, count_match, &c);
	return c.n;
}

void summary_restore(struct summary *s)
{
	s->selected = s->saved_selected;
	if (s->tally)
		tally_restore(s->tally);
}
