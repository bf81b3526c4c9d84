/* SPDX-License-Identifier: MIT */
/* summary.h - the summary of one input's search: what its selected lines
 * add up to, and whether the answer is known, for the reports that output
 * no lines.
 *
 * Owns the consumers of selected lines beside the sink (sink.h), each with
 * its own state: the count of selected lines (-c; with --count-matches a
 * line counts its non-empty matches), the decision that the first selected
 * line settles the input (-l, -L, -q, stdout /dev/null, a binary input
 * whose output stopped), the per-key tallies (tally.h: --count-per-pattern,
 * --all-patterns) and the statistics (a hook: search_stats.c, --stats and
 * --json; its state is the search's).  The search tells the summary of
 * each line it selects (after the line's output) and, under -v, of each
 * matching line it passes over; the answer says whether the search may
 * stop there.  Its counts can be saved and restored (summary_save,
 * summary_restore).  Knows nothing of windows, context or output.
 */
#ifndef ACGREP_SUMMARY_H
#define ACGREP_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/matcher.h"
#include "search_options.h"
#include "tally.h"

/* A line told to the summary: buf[ls, le), with its terminator if it has
 * one; bytes of buf before ls are -w context. */
struct summary_line {
	const char *buf;
	size_t ls, le;
	char eol;
	bool zap_nul;         /* NUL ends lines too (a binary input) */
};

/* A consumer of the selected lines that keeps its state elsewhere (and
 * saves and restores it itself): told (with ctx) of each line by its
 * bounds in the window being searched. */
struct summary_hook {
	void (*selected)(void *ctx, size_t ls, size_t le);
	void *ctx;
};

struct summary {
	const struct matcher *matcher;
	struct matcher_memo **memo; /* the thread's memo slot (matcher_count_each), or NULL */
	struct tally *tally;        /* the thread's per-key counts, or NULL */
	bool invert;                /* -v: a selected line holds no keys */
	bool count_matches;         /* a selected line counts its matches (--count-matches, not -v) */
	bool overlapping;           /* ... every occurrence (--overlapping) */
	bool decides;               /* the first selected line settles the input */
	bool whole_lines;           /* a selected line is needed whole (not in pieces) */
	struct summary_hook stats;  /* .selected NULL: no statistics */
	intmax_t selected;          /* selected lines, or their matches */
	intmax_t saved_selected;    /* ... at summary_save */
};

/* The summary of an input searched with opt by matcher m: memo is the
 * thread's memo slot for counting m's matches (NULL: none; judged afresh
 * for this input), tally the thread's per-key counts (NULL unless
 * tally_wanted), stats the statistics' hook (its .selected NULL unless
 * opt->stats), decides whether the first selected line settles the
 * input. */
struct summary summary_begin(const struct search_options *opt, const struct matcher *m,
			     struct matcher_memo **memo, struct tally *tally,
			     struct summary_hook stats, bool decides);

/* --count-matches: the non-empty leftmost-longest matches of the line
 * (every occurrence with --overlapping). */
intmax_t summary_count_matches(const struct summary *s, const struct summary_line *line);

/* Whether the answer is known once a line was selected: the first one
 * settles the input, and no key is counted or still to be seen. */
static inline bool summary_settled(const struct summary *s)
{
	return s->decides && !(s->tally && tally_pending(s->tally));
}

/* The line was selected (and output, if it is to be): counted, its keys
 * credited, the statistics told.  Returns whether the search may stop. */
static inline bool summary_selected(struct summary *s, const struct summary_line *line)
{
	intmax_t n = s->count_matches ? summary_count_matches(s, line) : 1;
	if (s->tally && !s->invert)
		tally_line(s->tally, s->matcher, line->buf, line->ls, line->le, line->eol, line->zap_nul);
	if (s->stats.selected)
		s->stats.selected(s->stats.ctx, line->ls, line->le);
	s->selected += n;
	return summary_settled(s);
}

/* -v: a matching line the search passed over (not selected): its keys are
 * credited (--all-patterns).  Returns whether the search may stop: a line
 * was selected before and the answer is known. */
static inline bool summary_passed_over(struct summary *s, const struct summary_line *line)
{
	if (s->tally)
		tally_line(s->tally, s->matcher, line->buf, line->ls, line->le, line->eol, line->zap_nul);
	return s->selected > 0 && summary_settled(s);
}

/* From here on the first selected line settles the input (a binary input
 * whose output stopped). */
static inline void summary_decide_on_select(struct summary *s)
{
	s->decides = true;
}

/* What was added up so far stands (the tally's too): summary_restore
 * comes back to here.  Inline: a mapped search saves after each line. */
static inline void summary_save(struct summary *s)
{
	s->saved_selected = s->selected;
	if (s->tally)
		tally_save(s->tally);
}

/* Forgets what was added up since summary_save. */
void summary_restore(struct summary *s);

#endif
