/* SPDX-License-Identifier: MIT */
/* matcher.h - the one interface between the search driver and an engine.
 *
 * A matcher finds fixed strings in a buffer of whole lines with grep -F
 * semantics: leftmost-longest, honouring -i, -w and -x.  Two engines
 * implement it: the Aho-Corasick engine (matcher_ac.c) and PCRE2
 * (matcher_pcre2.c), which the tests use as a second oracle.  Which of
 * GNU grep's rules a run's options call for is matcher.c's (matcher_build).
 */
#ifndef ACGREP_MATCHER_H
#define ACGREP_MATCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/option_types.h"

/* What decides a run's matcher: the options it is built for (built once
 * from the config by src/cli/narrow.c); matcher.c derives the engine's
 * match_options from them. */
struct matcher_spec {
	enum pattern_syntax syntax;  /* -F, or -E/-G expanded (regex.h) */
	enum engine_choice engine;   /* --engine */
	bool ignore_case;            /* -i */
	bool word;                   /* -w */
	bool line;                   /* -x */
	bool utf8;                   /* LC_CTYPE is UTF-8 */
	char eol;                    /* the line terminator: NUL with -z */
	bool binary_text;            /* --binary-files=text: NUL ends no line */
	int scan_path;               /* --scan-path (hidden): enum ac_scan_path, 0 = automatic */
	int simd;                    /* --simd (hidden): enum simd_level cap, 0 = best */
};

struct match_options {
	bool ignore_case;
	bool word;        /* -w */
	bool line;        /* -x */
	bool utf8;        /* UTF-8 locale: -i folds non-ASCII, -w uses iswalnum */
	char eol;         /* '\n' or '\0' */
	int scan_path;    /* enum ac_scan_path, 0 = automatic */
	/* GNU grep -F's own quirk, on the paths where it uses its fixed-string
	 * matcher: with -w, a match starting exactly at `from` is not checked
	 * against the character before `from` (so `grep -ow -e a -e ' '` prints
	 * both matches of "a ").  See matcher.c. */
	bool word_ignores_before_from;
	/* Binary files are searched with NUL bytes as line ends (grep's "NUL
	 * zapping"): -x then also accepts a NUL as a line boundary. */
	bool nul_ends_lines;
	int simd;         /* enum simd_level: the widest vector kernel allowed, 0 = best */
	/* -w where GNU grep uses its regex matcher (see matcher.c): at a start
	 * whose longest match is not a whole word it tries shorter matches
	 * but never the empty one. */
	bool word_regex_rules;
	/* GNU grep searches these options and patterns with its kwset matcher
	 * (see matcher.c); the fields above that depend on it follow from it */
	bool grep_kwset;
	unsigned threads; /* threads the compile may use for a huge set */
};

struct matcher;

/* One thread's memo for count_each: what counting a matcher's matches has
 * learnt, kept from text to text (the lines of a search, and input to
 * input).  A thread's slot starts NULL; count_each makes it where it
 * pays; matcher_memo_restart at each input lets the memo be judged afresh
 * there; matcher_memo_free frees it.  One matcher's per memo. */
struct matcher_memo;

/* Judges memo (NULL: nothing) afresh from here: a new input. */
void matcher_memo_restart(struct matcher_memo *memo);

/* Frees memo; NULL: nothing. */
void matcher_memo_free(struct matcher_memo *memo);

/* A pattern id no engine reports: the pattern is not known (PCRE2). */
#define MATCHER_NO_PATTERN UINT32_MAX

/* A match: buf[start, end), of pattern `pattern`, its index in the list
 * as given to matcher_build (of duplicates, and of patterns equal
 * under -i, the first listed; MATCHER_NO_PATTERN from an engine that
 * cannot tell). */
struct matcher_hit {
	size_t start, end;
	uint32_t pattern;
};

/* Called with each match of an iteration; non-zero stops it. */
typedef int (*matcher_match_fn)(const struct matcher_hit *hit, void *ctx);

struct matcher_ops {
	/* Finds the first match that starts at or after `from` in buf[0..len).
	 * buf holds whole lines (terminated by eol, the last maybe not);
	 * bytes before `from` are context for -w.  With exact = true the match
	 * is the leftmost-longest qualifying one and [*start, *end) its bounds;
	 * with exact = false only the line containing hit->start matters
	 * (faster), and hit->pattern is one of the patterns found there.
	 * Returns true when found.  Fails only for want of memory (see
	 * matcher_take_failure), returning false. */
	bool (*find)(const struct matcher *m, const char *buf, size_t len, size_t from,
		     bool exact, struct matcher_hit *hit);
	/* Calls cb for the match find(exact = true) returns from `from`, then
	 * for the one it returns from that match's end (one past an empty
	 * match), and so on (grep -o's matches).  Returns cb's first non-zero
	 * value, or 0 when no match is left (or on failure, as find's). */
	int (*each)(const struct matcher *m, const char *buf, size_t len, size_t from,
		    matcher_match_fn cb, void *ctx);
	/* Calls cb for every occurrence of every pattern that starts at or
	 * after `from` (--overlapping): those inside or overlapping others
	 * too, under -w those whose neighbours are not word constituents
	 * (each judged on its own, whatever else matches around it), under
	 * -x those spanning a line, under -i as -i folds; each pattern of
	 * those the matcher cannot tell apart once, as the first (the id
	 * identify reports).  In order of start, the longest first at each
	 * start (so the match `each` reports there comes first), then by
	 * pattern id.  Empty occurrences (the empty pattern) are reported
	 * too.  Returns cb's first non-zero value, or 0 (or on failure, as
	 * find's).  NULL for an engine that cannot tell patterns apart
	 * (PCRE2): the options that need it refuse that engine. */
	int (*each_overlapping)(const struct matcher *m, const char *buf, size_t len, size_t from,
				matcher_match_fn cb, void *ctx);
	/* The number of non-empty matches `each` reports from `from`, counted
	 * without a call per match; -1 when this matcher counts them only
	 * through `each` (the caller then does).  memo: NULL, or the calling
	 * thread's (struct matcher_memo), which the matcher may make and fill
	 * to count later texts faster.  NULL: always -1. */
	intmax_t (*count_each)(const struct matcher *m, const char *buf, size_t len, size_t from,
			       struct matcher_memo **memo);
	/* The pattern id a match of exactly the text p[0..len) reports: true
	 * and *id, or false when no pattern matches it whole (or the engine
	 * cannot tell).  Linear in len. */
	bool (*identify)(const struct matcher *m, const char *p, size_t len, uint32_t *id);
	void (*destroy)(struct matcher *m);
};

struct matcher {
	const struct matcher_ops *ops;
	/* The most bytes of text one match spans, or SIZE_MAX when the engine
	 * cannot say (a line is then always searched whole). */
	size_t longest_span;
	/* A pattern holds the line end (-z, from -f): a match may span lines,
	 * and the lines it spans are selected as one, as grep's kwset does. */
	bool spans_eol;
	/* -x -w where GNU grep uses its regex matcher (matcher.c): a match
	 * covering a line's text takes its terminator too, which -o and
	 * colours then print with it.  Set by matcher_build. */
	bool match_takes_eol;
	/* An -E/-G list that matches nothing, whose lines GNU grep selects by
	 * a literal all the same (regex.h, regex_list_must): its matches are
	 * never shown (-o, colours, counted matches).  Set by matcher_build. */
	bool matches_unseen;
};

/* Builds the matcher spec calls for (engine, -i, -w, -x, -z, binary
 * files) over `patterns`, normally the config's, which it takes over:
 * the set is left empty whether it succeeds or not, and a huge list is
 * never copied.
 * `threads`: how many threads the compile may use.
 * Patterns holding NUL that can never match are dropped.  Returns the
 * matcher, or NULL with *error set to a static message ("memory
 * exhausted", or why the engine refused the patterns). */
struct matcher *matcher_build(const struct matcher_spec *spec, struct pattern_set *patterns,
			      unsigned threads, const char **error);

/* The match_options spec calls for, where GNU grep would (grep_kwset) or
 * would not search the patterns with its kwset matcher (matcher_build's
 * rules; a compiled pattern set keeps grep_kwset). */
struct match_options matcher_options(const struct matcher_spec *spec, bool grep_kwset,
				     unsigned threads);

/* struct matcher.match_takes_eol for a matcher built with options mo. */
static inline bool matcher_takes_eol(const struct match_options *mo)
{
	return mo->word && mo->line && !mo->grep_kwset;
}

/* Whether a matcher call (find, each) on this thread failed for want of
 * memory since the last matcher_take_failure, which clears the flag.
 * Only -i in a UTF-8 locale can fail: the folded text lives in memory of
 * the thread's own that grows with the windows folded.  A failed call
 * reports no match, so the caller asks after each call whose "no match"
 * would select lines (-v) and ends the input as failed: "FILE: memory
 * exhausted", status 2. */
bool matcher_take_failure(void);

/* For the engines: records that a call on this thread failed. */
void matcher_note_failure(void);

/* Builds a matcher over `patterns` (struct pattern; under -z some may hold
 * the line end NUL: matcher.spans_eol) with the options as given (for
 * the tests; the program asks matcher_build).  Returns NULL and
 * sets *error to a static message on failure ("memory exhausted", PCRE2
 * not compiled in).  matcher_ac_new takes the
 * set, its storage and end arrays from malloc: it keeps or frees them, and
 * leaves *patterns empty, whether it succeeds or not (a huge list is then
 * never copied). */
struct matcher *matcher_ac_new(struct pattern_set *patterns,
			       const struct match_options *opts, const char **error);
struct matcher *matcher_pcre2_new(const struct pattern_set *patterns,
				  const struct match_options *opts, const char **error);

static inline bool matcher_find_hit(const struct matcher *m, const char *buf, size_t len,
				    size_t from, bool exact, struct matcher_hit *hit)
{
	return m->ops->find(m, buf, len, from, exact, hit);
}

/* matcher_find_hit for the bounds alone. */
static inline bool matcher_find(const struct matcher *m, const char *buf, size_t len,
				size_t from, bool exact, size_t *start, size_t *end)
{
	struct matcher_hit hit = { .start = 0 };
	bool found = m->ops->find(m, buf, len, from, exact, &hit);
	*start = hit.start;
	*end = hit.end;
	return found;
}

static inline bool matcher_identify(const struct matcher *m, const char *p, size_t len,
				    uint32_t *id)
{
	return m->ops->identify(m, p, len, id);
}

static inline int matcher_each(const struct matcher *m, const char *buf, size_t len, size_t from,
			       matcher_match_fn cb, void *ctx)
{
	return m->ops->each(m, buf, len, from, cb, ctx);
}

static inline intmax_t matcher_count_each(const struct matcher *m, const char *buf, size_t len,
					  size_t from, struct matcher_memo **memo)
{
	return m->ops->count_each ? m->ops->count_each(m, buf, len, from, memo) : -1;
}

static inline int matcher_each_overlapping(const struct matcher *m, const char *buf, size_t len,
					   size_t from, matcher_match_fn cb, void *ctx)
{
	return m->ops->each_overlapping(m, buf, len, from, cb, ctx);
}

/* matcher_each by repeated find calls, for engines with nothing faster. */
static inline int matcher_each_by_find(const struct matcher *m, const char *buf, size_t len,
				       size_t from, matcher_match_fn cb, void *ctx)
{
	struct matcher_hit hit;
	int rc;
	while (from <= len && m->ops->find(m, buf, len, from, true, &hit)) {
		if ((rc = cb(&hit, ctx)) != 0)
			return rc;
		from = hit.end > hit.start ? hit.end : hit.end + 1;
	}
	return 0;
}

static inline void matcher_free(struct matcher *m)
{
	if (m)
		m->ops->destroy(m);
}

#endif
