/* SPDX-License-Identifier: MIT */
/* search_stats.c - what the search of one input counts for the
 * statistics (stats.h; search_internal.h has the interface).
 *
 * Owns: the counts of one input as its search goes: selected lines, their
 * matches as -o outputs them (found with the matcher even where the search
 * itself needs no match bounds: -c, -l, -L, -q), the patterns of those
 * matches, the bytes and lines searched, the time taken and the bytes
 * output.  A search that stops early counts up to the last line it
 * selected or output.  The patterns named are listed per input (the
 * thread's set, empty between inputs, tells the new ones), so that the
 * run adds up only those of inputs it reports.  The matches of a selected
 * line are found when it is output (or counted, if it is not) and kept
 * for the sink (sink_line.hits), so that a JSON record needs no second
 * pass; the line is counted after its output, so that what is saved
 * where the search is done with one of its context lines does not hold
 * its counts.  The counts are saved and restored with the search's state
 * (a keeper of the input's undo log: search_stats_begin).
 */
#include "search_internal.h"
#include "only_matching.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* The counts as they are now stand (input_keeper's save, ctx the
 * file_search). */
static void stats_save(void *ctx, uint64_t at)
{
	struct file_search *f = ctx;
	(void)at;
	f->stats_saved = (struct stats_saved){
		.stats = f->res->stats,
		.seen_ids = f->res->seen.n,
		.seen_end = f->seen_end,
		.tail_open = f->tail_open,
	};
}

/* The counts back as stats_save found them, the patterns listed since
 * forgotten. */
static bool stats_restore(void *ctx)
{
	struct file_search *f = ctx;
	const struct stats_saved *k = &f->stats_saved;
	size_t n_seen = k->seen_ids;
	f->res->stats = k->stats;
	f->seen_end = k->seen_end;
	f->tail_open = k->tail_open;
	struct pattern_ids *l = &f->res->seen;
	if (f->s->seen && n_seen < l->n)
		patterns_seen_update(f->s->seen, &(struct pattern_ids){ .v = l->v + n_seen, .n = l->n - n_seen },
				     false);
	if (n_seen < l->n)
		l->n = n_seen;
	/* the bytes read again are taken as new */
	f->ahead.from = f->ahead.to = 0;
	f->hits.at = UINT64_MAX;
	return true;
}

void search_stats_begin(struct file_search *f)
{
	f->started = stats_now();
	f->start_mark = f->state.out_mark;
	f->origin = input_at(f->in);
	f->hits.at = UINT64_MAX;
	input_undo_calls(&f->undo, (struct input_keeper){
		.save = stats_save, .restore = stats_restore, .ctx = f,
	});
}

/* Keeps a hit of the line in f->hits (false when out of memory). */
static bool keep_hit(struct line_hits *h, const struct matcher_hit *hit)
{
	if (h->n == h->cap) {
		struct matcher_hit *v = grow_array(h->v, &h->cap, h->n + 1, sizeof *v, 16);
		if (!v)
			return false;
		h->v = v;
	}
	h->v[h->n++] = *hit;
	return true;
}

/* Keeps a match -o prints of the line in f->hits; stops when out of memory. */
static int line_hit(const struct matcher_hit *hit, bool takes_eol, void *ctx)
{
	struct line_hits *h = ctx;
	(void)takes_eol;
	h->whole = keep_hit(h, hit);
	return !h->whole;
}

/* Bytes of lines scanned ahead at a time: enough for the engine's vector
 * blocks, little to waste where matches are rare. */
#define SCAN_AHEAD 4096

static int collect_hit(const struct matcher_hit *hit, void *ctx)
{
	struct file_search *f = ctx;
	struct ahead_hits *a = &f->ahead;
	if (a->n == a->cap) {
		struct ahead_hit *v = grow_array(a->v, &a->cap, a->n + 1, sizeof *v, 64);
		if (!v) {
			a->off = true;
			return 1;
		}
		a->v = v;
	}
	a->v[a->n++] = (struct ahead_hit){
		.start = f->base + hit->start, .end = f->base + hit->end, .pattern = hit->pattern,
	};
	return 0;
}

/* Finds the matches of the whole lines from buffer position ls on, to
 * SCAN_AHEAD bytes and the end of the line there.  False when lines are to
 * be scanned one by one instead. */
static bool scan_ahead(struct file_search *f, size_t ls)
{
	struct ahead_hits *a = &f->ahead;
	size_t end = f->len - ls > SCAN_AHEAD ? ls + SCAN_AHEAD : f->len;
	const char *eol = end < f->len ? memchr(f->buf + end, f->eol, f->len - end) : NULL;
	if (end < f->len)
		end = eol ? (size_t)(eol - f->buf) + 1 : f->len;
	a->n = a->next = 0;
	matcher_each(f->s->matcher, f->buf, end, ls, collect_hit, f);
	a->from = f->base + ls;
	a->to = f->base + end;
	return !a->off;
}

/* The matches -o prints of the line [ls, le) (`line`, only_matching.h)
 * from the scan ahead, into f->hits. */
static void hits_ahead(struct file_search *f, size_t ls, size_t le, const struct printed_line *line)
{
	struct ahead_hits *a = &f->ahead;
	uint64_t at = f->base + ls;
	while (a->next < a->n && a->v[a->next].start < at)
		a->next++;
	for (; a->next < a->n && a->v[a->next].start < f->base + le; a->next++) {
		const struct ahead_hit *h = &a->v[a->next];
		struct matcher_hit hit = {
			.start = (size_t)(h->start - at), .end = (size_t)(h->end - at), .pattern = h->pattern,
		};
		if (printed_match_step(line, &hit, line_hit, &f->hits))
			break;
	}
}

/* Finds the matches of the selected line [ls, le) into f->hits (none under
 * -v, where a selected line holds none, nor when they are unseen). */
static void find_hits(struct file_search *f, size_t ls, size_t le)
{
	struct ahead_hits *a = &f->ahead;
	f->hits.n = 0;
	f->hits.whole = true;
	f->hits.at = f->base + ls;
	if (f->opt->invert || f->s->matcher->matches_unseen)
		return;
	a->off |= f->s->matcher->spans_eol;
	struct printed_line line = printed_line_of(f->s->matcher, f->buf + ls, le - ls, f->eol, false);
	if (!a->off && (f->base + ls >= a->from && f->base + le <= a->to ? true : scan_ahead(f, ls)))
		hits_ahead(f, ls, le, &line);
	else
		printed_matches_each(&line, f->buf + ls, le - ls, line_hit, &f->hits);
	search_failed(f);
}

const struct sink_hits *search_stats_hits(struct file_search *f, size_t ls, size_t le,
					  struct sink_hits *out)
{
	if (f->hits.at != f->base + ls)
		find_hits(f, ls, le);
	if (!f->hits.whole)
		return NULL;
	*out = (struct sink_hits){ .v = f->hits.v, .n = f->hits.n };
	return out;
}

/* Lists pattern id among those the input's matches named, when the
 * thread's set says it is new to the input.  False when out of memory. */
static bool note_pattern(struct file_search *f, uint32_t id)
{
	struct patterns_seen *seen = f->s->seen;
	if (!seen || !patterns_seen_add(seen, id) || pattern_ids_add(&f->res->seen, id))
		return true;
	patterns_seen_update(seen, &(struct pattern_ids){ .v = &id, .n = 1 }, false);
	return false;
}

void search_stats_line(void *ctx, size_t ls, size_t le)
{
	struct file_search *f = ctx;
	struct search_stats *st = &f->res->stats;
	if (f->hits.at != f->base + ls)
		find_hits(f, ls, le);
	bool whole = f->hits.whole;
	for (size_t i = 0; whole && i < f->hits.n; i++)
		whole = note_pattern(f, f->hits.v[i].pattern);
	f->hits.at = UINT64_MAX; /* the next line's to find */
	st->matched_lines++;
	st->matches += f->hits.n;
	f->seen_end = f->base + le;
	if (!whole && !search_failed(f)) { /* the counts cannot be exact: the input fails */
		f->res->read_error = true;
		f->res->read_errno = ENOMEM;
		f->res->read_why = "memory exhausted";
		f->state.done = true;
	}
}

void search_stats_window(struct file_search *f)
{
	uint64_t end = f->base + f->len;
	if (f->state.done) {
		end = f->seen_end;
		if (f->state.context.lastout != CONTEXT_NONE && f->state.context.lastout > end)
			end = f->state.context.lastout;
		if (end > f->base + f->len)
			end = f->base + f->len;
	}
	if (end <= f->base + f->start)
		return;
	size_t pos = (size_t)(end - f->base);
	/* from where the search began, not added up per window: after a
	 * restore to a line inside a window the count is still whole */
	f->res->stats.bytes_searched = end - f->origin;
	f->tail_open = f->buf[pos - 1] != f->eol;
	if (f->count_lines) {
		search_lineno_at(f, pos);
		f->res->stats.lines_searched = (uint64_t)f->state.cnt_lines;
	}
}

void search_stats_end(struct file_search *f)
{
	struct search_stats *st = &f->res->stats;
	st->lines_searched += f->tail_open;
	st->bytes_printed = sink_mark(f->sink) - f->start_mark;
	st->nanos = stats_now() - f->started;
	if (f->s->seen) /* empty again for the thread's next input */
		patterns_seen_update(f->s->seen, &f->res->seen, false);
	free(f->hits.v);
	f->hits = (struct line_hits){ .v = NULL };
	free(f->ahead.v);
	f->ahead = (struct ahead_hits){ .v = NULL };
}
