/* SPDX-License-Identifier: MIT */
/* match_output.c - -o's output of one line (see match_output.h). */
#include "match_output.h"

#include "only_matching.h"

/* One line's walk: the emitter's request, the line, the binary verdict. */
struct match_walk {
	struct match_output *o;
	struct printed_line line;
	const char *text;
	bool admitted;
};

static int emit_match(const struct matcher_hit *hit, bool takes_eol, void *ctx)
{
	struct match_walk *w = ctx;
	struct match_output *o = w->o;
	const char *bytes = w->text + hit->start;
	size_t len = hit->end - hit->start;
	if (!binary_admits_match(o->bin, bytes, len)) {
		w->admitted = false;
		return 1;
	}
	o->mark = sink_match(o->sink, &(struct sink_match){
		.bytes = bytes,
		.len = len,
		.lineno = o->lineno,
		.offset = o->offset + hit->start,
		.kind = o->kind,
		.takes_eol = takes_eol,
		.pattern = hit->pattern,
	});
	return 0;
}

/* The matcher's callback: the rule of only_matching.h inlined. */
static int walk_match(const struct matcher_hit *hit, void *ctx)
{
	struct match_walk *w = ctx;
	return printed_match_step(&w->line, hit, emit_match, w);
}

bool match_output_line(struct match_output *o, const char *line, size_t len)
{
	if ((o->kind == SINK_SELECTED) == o->invert)
		return true;
	struct match_walk w = {
		.o = o,
		.line = printed_line_of(o->matcher, line, len, o->eol, o->overlapping),
		.text = line,
		.admitted = true,
	};
	printed_matches_scan(&w.line, line, len, walk_match, &w);
	return w.admitted;
}
