/* SPDX-License-Identifier: MIT */
/* only_matching.h - which of a line's matches grep -o prints, the one
 * rule for every place that shows a line's matches: -o's output (search
 * and --merge), the colours of a matching line, the pattern field,
 * --stats's and --json's matches.
 *
 * GNU grep 3.8's rule over the matches matcher_each reports on a line:
 * an empty match is not printed (the matcher steps over a byte and goes
 * on); a match starting past the line's text ends the line's matches; a
 * match covering the line's text takes its terminator where the matcher
 * says so (matcher.match_takes_eol), and is the last.  With --overlapping
 * the matches are every occurrence (matcher_each_overlapping), under the
 * same rule.
 *
 * The rule and the loop are static inline: a hot path's per-match
 * function inlines them (printed_match_step with a constant `print`), so
 * the rule adds no call per match on the -o path; printed_matches_each is
 * the same walk for the other callers.
 */
#ifndef ACGREP_ONLY_MATCHING_H
#define ACGREP_ONLY_MATCHING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/matcher.h"

/* The matches a line is searched for: grep's leftmost-longest ones
 * (matcher_each), or with `overlapping` every occurrence
 * (matcher_each_overlapping, --overlapping).  Arguments and return as
 * matcher_each's. */
static inline int matcher_each_occurrence(const struct matcher *m, bool overlapping, const char *buf,
					  size_t len, size_t from, matcher_match_fn cb, void *ctx)
{
	if (overlapping)
		return matcher_each_overlapping(m, buf, len, from, cb, ctx);
	return matcher_each(m, buf, len, from, cb, ctx);
}

/* One line whose printed matches are asked for. */
struct printed_line {
	const struct matcher *matcher;
	size_t content;       /* the line's length without its terminator */
	bool overlapping;     /* --overlapping: every occurrence */
};

/* The printed_line of line[0..len), terminated by eol or not. */
static inline struct printed_line printed_line_of(const struct matcher *m, const char *line,
						  size_t len, char eol, bool overlapping)
{
	return (struct printed_line){
		.matcher = m,
		.content = len - (len > 0 && line[len - 1] == eol),
		.overlapping = overlapping,
	};
}

/* What -o does with one match the matcher reports on a line. */
enum printed_match {
	PRINTED_SKIP,  /* empty: not printed, the line's matches go on */
	PRINTED,       /* printed, the line's matches go on */
	PRINTED_LAST,  /* covers the line's text and takes its terminator: printed, the last */
	PRINTED_PAST,  /* starts past the line's text: neither it nor any later one is printed */
};

static inline enum printed_match printed_match_judge(const struct printed_line *pl,
						     const struct matcher_hit *hit)
{
	if (pl->matcher->match_takes_eol && hit->end == pl->content)
		return PRINTED_LAST;
	if (hit->start >= pl->content)
		return PRINTED_PAST;
	return hit->end > hit->start ? PRINTED : PRINTED_SKIP;
}

/* Prints one match: takes_eol when it takes the line's terminator (it is
 * then the last).  Non-zero stops the line's matches. */
typedef int (*printed_match_fn)(const struct matcher_hit *hit, bool takes_eol, void *ctx);

/* The body of a matcher_match_fn over a line's matches: judges hit by
 * pl's line, calls print for a printed one, and returns what the
 * matcher_match_fn returns (non-zero: the line's matches end).  Pass a
 * function's name as print, so that it is inlined. */
static inline int printed_match_step(const struct printed_line *pl, const struct matcher_hit *hit,
				     printed_match_fn print, void *ctx)
{
	enum printed_match verdict = printed_match_judge(pl, hit);
	if (verdict == PRINTED_SKIP || verdict == PRINTED_PAST)
		return verdict == PRINTED_PAST;
	int rc = print(hit, verdict == PRINTED_LAST, ctx);
	return rc ? rc : verdict == PRINTED_LAST;
}

/* Calls cb, a matcher_match_fn built on printed_match_step (or
 * printed_match_judge), for the matches of line[0..len) the matcher
 * reports (every occurrence with pl->overlapping): the form for a hot
 * path, whose cb inlines the rule.  Returns cb's first non-zero value, or
 * 0 (a line of 0 bytes has none, nor a matcher's whose matches are
 * unseen). */
static inline int printed_matches_scan(const struct printed_line *pl, const char *line, size_t len,
				       matcher_match_fn cb, void *ctx)
{
	if (len == 0 || pl->matcher->matches_unseen)
		return 0;
	return matcher_each_occurrence(pl->matcher, pl->overlapping, line, len, 0, cb, ctx);
}

/* The number of matches of line[0..len) that -o prints, counted by the
 * matcher without a call per match (matcher_count_each, with the thread's
 * memo: NULL or its slot) where the rule above reduces to "the non-empty
 * ones": leftmost-longest matches, none spanning the terminator or taking
 * it.  -1 where it does not, or where the matcher cannot count so: the
 * caller then counts through printed_matches_scan. */
static inline intmax_t printed_matches_count(const struct printed_line *pl, const char *line,
					     size_t len, struct matcher_memo **memo)
{
	if (len == 0 || pl->matcher->matches_unseen)
		return 0;
	if (pl->overlapping || pl->matcher->match_takes_eol || pl->matcher->spans_eol)
		return -1;
	return matcher_count_each(pl->matcher, line, len, 0, memo);
}

/* Calls print for each match of line[0..len) that -o prints, in order,
 * until print returns non-zero (the form for a path where a call per
 * match is no matter).  Returns print's non-zero value, or 0. */
int printed_matches_each(const struct printed_line *pl, const char *line, size_t len,
			 printed_match_fn print, void *ctx);

#endif
