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
 * run adds up only those of inputs it reports.  The matches of a selected line are kept for the
 * sink (sink_line.hits), so that a JSON record needs no second pass.
 */
#include "search_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void search_stats_begin(struct file_search *f)
{
	f->started = stats_now();
	f->start_mark = f->out_mark;
	f->binary_offset = UINT64_MAX;
}

/* search_stats_line's count of the line's matches. */
struct line_count {
	struct file_search *f;
	uint64_t matches;
	bool out_of_memory;
};

/* Keeps a hit in f->hits; when there is no room for it, the list is not
 * whole and the sink finds the matches itself. */
static void keep_hit(struct line_hits *h, const struct matcher_hit *hit)
{
	if (!h->whole)
		return;
	if (h->n == h->cap) {
		struct matcher_hit *v = grow_array(h->v, &h->cap, h->n + 1, sizeof *v, 16);
		if (!v) {
			h->whole = false;
			return;
		}
		h->v = v;
	}
	h->v[h->n++] = *hit;
}

/* Notes that the input's matches named pattern id: the thread's set says
 * whether it is new to this input, the result lists it then. */
static bool note_pattern(struct file_search *f, uint32_t id)
{
	struct patterns_seen *seen = f->s->seen;
	if (!seen || !patterns_seen_add(seen, id) || pattern_ids_add(&f->res->seen, id))
		return true;
	patterns_seen_update(seen, &(struct pattern_ids){ .v = &id, .n = 1 }, false);
	return false;
}

static int count_hit(const struct matcher_hit *hit, void *ctx)
{
	struct line_count *lc = ctx;
	lc->matches++;
	if (!note_pattern(lc->f, hit->pattern)) {
		lc->out_of_memory = true;
		return 1;
	}
	keep_hit(&lc->f->hits, hit);
	return 0;
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

/* The line [ls, le)'s matches from the scan ahead, by the rules of
 * stats_line_matches, through count_hit. */
static void count_ahead(struct file_search *f, size_t ls, size_t le, struct line_count *lc)
{
	struct ahead_hits *a = &f->ahead;
	uint64_t at = f->base + ls, content = le - ls - (f->buf[le - 1] == f->eol);
	while (a->next < a->n && a->v[a->next].start < at)
		a->next++;
	for (; a->next < a->n && a->v[a->next].start < f->base + le; a->next++) {
		const struct ahead_hit *h = &a->v[a->next];
		struct matcher_hit hit = {
			.start = (size_t)(h->start - at), .end = (size_t)(h->end - at), .pattern = h->pattern,
		};
		bool takes_eol = f->s->matcher->match_takes_eol && hit.end == content;
		if (hit.start >= content && !takes_eol)
			break;
		if ((hit.end > hit.start || takes_eol) && (count_hit(&hit, lc) || takes_eol))
			break;
	}
}

void search_stats_line(struct file_search *f, size_t ls, size_t le)
{
	struct search_stats *st = &f->res->stats;
	st->matched_lines++;
	f->seen_end = f->base + le;
	f->hits.n = 0;
	f->hits.whole = true;
	if (f->cfg->invert)
		return; /* a line selected under -v holds no match */
	struct line_count lc = { .f = f };
	struct ahead_hits *a = &f->ahead;
	a->off |= f->s->matcher->spans_eol;
	if (!a->off && (f->base + ls >= a->from && f->base + le <= a->to ? true : scan_ahead(f, ls)))
		count_ahead(f, ls, le, &lc);
	else
		stats_line_matches(f->s->matcher, f->buf + ls, le - ls, f->eol, count_hit, &lc);
	st->matches += lc.matches;
	if (lc.out_of_memory && !search_failed(f)) { /* the counts cannot be exact: the input fails */
		f->res->read_error = true;
		f->res->read_errno = ENOMEM;
		f->res->read_why = "memory exhausted";
		f->done = true;
	}
	search_failed(f);
}

void search_stats_back(struct file_search *f, size_t n_seen)
{
	struct pattern_ids *l = &f->res->seen;
	if (f->s->seen && n_seen < l->n)
		patterns_seen_update(f->s->seen, &(struct pattern_ids){ .v = l->v + n_seen, .n = l->n - n_seen },
				     false);
	if (n_seen < l->n)
		l->n = n_seen;
}

void search_stats_window(struct file_search *f)
{
	uint64_t end = f->base + f->len;
	if (f->done) {
		end = f->seen_end;
		if (f->lastout != UINT64_MAX && f->lastout > end)
			end = f->lastout;
		if (end > f->base + f->len)
			end = f->base + f->len;
	}
	if (end <= f->base + f->start)
		return;
	size_t pos = (size_t)(end - f->base);
	f->res->stats.bytes_searched += pos - f->start;
	f->tail_open = f->buf[pos - 1] != f->eol;
	if (f->count_lines) {
		search_lineno_at(f, pos);
		f->res->stats.lines_searched = (uint64_t)f->cnt_lines;
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
