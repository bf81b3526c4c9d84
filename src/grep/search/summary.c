/* SPDX-License-Identifier: MIT */
/* summary.c - the summary of one input's search (see summary.h): its
 * setup from the options, --count-matches' count of a line, its state
 * kept and taken back at the search's checkpoints.
 */
#include "summary.h"

#include "only_matching.h"

struct summary summary_begin(const struct config *cfg, const struct matcher *m, struct tally *tally,
			     struct summary_hook stats, bool decides)
{
	return (struct summary){
		.matcher = m,
		.tally = tally,
		.invert = cfg->invert,
		.count_matches = cfg->count_matches && !cfg->invert,
		.overlapping = cfg->overlapping,
		.decides = decides,
		.whole_lines = cfg->count_matches || tally || stats.selected,
		.stats = stats,
	};
}

/* summary_count_matches' count over one line. */
struct match_count {
	const struct summary_line *line;
	intmax_t n;
};

static int count_match(const struct matcher_hit *hit, void *ctx)
{
	struct match_count *c = ctx;
	const struct summary_line *l = c->line;
	size_t ms = hit->start, me = hit->end;
	if (ms >= l->le)
		return 1;
	if (ms == me)
		return ms + 1 >= l->le || l->buf[ms] == l->eol || (l->zap_nul && l->buf[ms] == '\0');
	c->n++;
	return 0;
}

intmax_t summary_count_matches(const struct summary *s, const struct summary_line *line)
{
	struct match_count c = { .line = line, .n = 0 };
	matcher_each_occurrence(s->matcher, s->overlapping, line->buf, line->le, line->ls, count_match, &c);
	return c.n;
}

void summary_keep(struct summary *s)
{
	s->kept_selected = s->selected;
	if (s->tally)
		tally_checkpoint(s->tally);
	if (s->stats.keep)
		s->stats.keep(s->stats.ctx);
}

void summary_back(struct summary *s)
{
	s->selected = s->kept_selected;
	if (s->tally)
		tally_rewind(s->tally);
	if (s->stats.back)
		s->stats.back(s->stats.ctx);
}
