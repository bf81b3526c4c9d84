/* SPDX-License-Identifier: MIT */
/* matcher_ac_internal.h - what matcher_ac.c, matcher_fold.c and
 * matcher_memo.c share.
 *
 * The Aho-Corasick matcher searches a view: the buffer itself, or a folded
 * window of it (-i in a UTF-8 locale, matcher_fold.c) whose offsets map
 * back to the buffer's.  Matches are reported in the buffer's offsets.
 * matcher_memo.c counts for matcher_ac.c with a thread's memo.
 */
#ifndef ACGREP_MATCHER_AC_INTERNAL_H
#define ACGREP_MATCHER_AC_INTERNAL_H

#include "ac.h"
#include "fold/fold_utf8.h"
#include "matcher.h"

/* A pattern that ends in an incomplete UTF-8 sequence (a lead byte and
 * fewer continuation bytes than it needs): its folded rest and that tail,
 * at offsets of fold_state.partial_bytes; its engine id. */
struct fold_partial {
	uint32_t id;
	size_t rest, rest_len, tail, tail_len;
};

/* -i in a UTF-8 locale (matcher_fold.c): the fold and what the search
 * through folded windows needs of the patterns. */
struct fold_state {
	struct fold_table *table;
	size_t overlap;   /* the most text a match spans: 4 bytes a folded byte */
	size_t max_chunk; /* windows grow to this */
	bool filter;      /* matches may start inside a character */
	bool ascii;       /* every pattern is ASCII: only ı, ſ and the like need folding */
	/* The patterns as given, kept only for what line_ok asks: indexes of
	 * those holding DFA-narrow characters, and of those not valid UTF-8. */
	struct pattern_set orig;
	size_t *narrow, n_narrow, cap_narrow;
	size_t *bad, n_bad, cap_bad;
	bool borrowed;    /* orig, narrow and bad are a compiled file's: not freed */
	/* Under grep's -w retries, the patterns that end in an incomplete
	 * sequence (fold_partials_setup; matcher_ac.c's partial_at). */
	struct fold_partial *partial;
	size_t n_partial;
	char *partial_bytes;
};

/* The image of a compiled pattern set a loaded matcher points into
 * (compiled/matcher_file.c). */
struct matcher_image {
	const void *base;
	size_t size;
	size_t mapped; /* bytes at base ours to unmap (matcher_load); 0: the caller's */
};

struct matcher_ac {
	struct matcher base;
	ac_automaton *ac;
	struct match_options opt;
	size_t max_len;           /* the longest pattern the automaton holds */
	struct fold_state *fold;  /* NULL unless -i in UTF-8 folds (matcher_fold.c) */
	/* With anchored patterns (pattern_set.anchors), per engine id and
	 * kind of anchors (0, REGEX_BOL, REGEX_EOL or both), the first
	 * engine id of that kind the automaton cannot tell from it, or
	 * NO_ANCHORED; NULL when no pattern is anchored. */
	uint32_t (*anchor_first)[4];
	uint32_t *given;          /* engine id -> id in the list as given
				     (pattern_set.given); NULL: the same */
	/* The compiled file whose image the automaton's tables, `given` and
	 * the fold's lists point into (compiled/matcher_file.c); NULL when compiled
	 * here.  Released by destroy, after them. */
	struct matcher_image *image;
	enum pattern_syntax syntax; /* a loaded set's (compiled/matcher_file.c); SYNTAX_FIXED otherwise */
};

/* No pattern of that kind of anchors (matcher_ac.anchor_first). */
#define NO_ANCHORED UINT32_MAX

/* The operations of every Aho-Corasick matcher (matcher_ac.c). */
extern const struct matcher_ops matcher_ac_ops;

/* Sets what follows from m's automaton and fold: max_len and the base's
 * longest_span and spans_eol (`holds_nul`: some pattern the automaton
 * holds has a NUL). */
void matcher_ac_settle(struct matcher_ac *m, bool holds_nul);

/* Unmaps img (when ours) and frees it. */
void matcher_image_release(struct matcher_image *img);

/* Sets f's window sizes for folded patterns of at most max_folded bytes. */
void fold_state_size(struct fold_state *f, size_t max_folded);

/* What the automaton scans: the buffer, or a folded window of it. */
struct view {
	const char *text;
	size_t len;
	size_t own;                   /* matches starting here or later belong to the next
				       * window (SIZE_MAX: none, the window is whole lines) */
	const struct fold_window *fw; /* NULL: text is the buffer itself */
	bool filter;                  /* drop matches starting inside a character */
};

/* The buffer offset of view offset p. */
static inline size_t view_to_buf(const struct view *v, size_t p)
{
	return v->fw ? fold_to_text(v->fw, p) : p;
}

/* The largest view offset whose buffer offset is at most o. */
static inline size_t view_floor(const struct view *v, size_t o)
{
	if (v->fw)
		return fold_floor(v->fw, o);
	return o < v->len ? o : v->len;
}

static inline bool view_boundary(const struct view *v, size_t p)
{
	return !v->filter || fold_is_boundary(v->text, v->len, p);
}

/* The id of engine pattern `id` in the list as given (matcher_ac.given). */
static inline uint32_t ac_given_id(const struct matcher_ac *m, uint32_t id)
{
	return m->given ? m->given[id] : id;
}

/* Whether the occurrence buf[s, e) of engine pattern *id counts on its
 * own: its anchors are satisfied (then *id is the first listed pattern
 * whose are), under -x it spans a line, under -w its neighbours are not
 * word constituents (grep's retries and its quirk at `from` aside). */
bool ac_occurrence_qualifies(const struct matcher_ac *m, const char *buf, size_t len, size_t s,
			     size_t e, uint32_t *id);

/* matcher_each_overlapping's work (matcher_overlap.c): the occurrences
 * of the views a search hands it, reordered by start. */
struct overlap;

/* Reports the occurrences of view v of o's buffer that start at or
 * after view offset vfrom (and before v->own, on a character boundary),
 * those that qualify; all of them are reported before it returns.
 * Returns the callback's first non-zero value, or 0; a failure (memory)
 * is noted (matcher_note_failure) and ends the iteration. */
int overlap_view(struct overlap *o, const struct view *v, size_t vfrom);

/* matcher_each_overlapping for a matcher with m->fold: the folded
 * windows of buf[from, len) through overlap_view. */
int fold_each_overlapping(const struct matcher_ac *m, const char *buf, size_t len, size_t from,
			  struct overlap *o);

/* The matcher_ops.each_overlapping of the Aho-Corasick matcher. */
int ac_each_overlapping(const struct matcher *base, const char *buf, size_t len, size_t from,
			matcher_match_fn cb, void *ctx);

/* matcher_find over view v of buf[0..len), starting at view offset vfrom
 * (buffer offset `from`); hit's bounds are buffer offsets, its pattern
 * the engine's id. */
bool ac_find_in_view(const struct matcher_ac *m, const struct view *v, const char *buf, size_t len,
		     size_t from, size_t vfrom, bool exact, struct matcher_hit *hit);

/* Sets up -i in a UTF-8 locale: when some pattern of ps needs grep's
 * folding, m->fold is made and ps replaced by the folded patterns (the
 * originals freed or kept as needed).  Returns 0, or -1 when out of
 * memory (ps is then freed). */
int fold_setup(struct matcher_ac *m, struct pattern_set *ps);

/* Notes in m->fold (when m folds and follows grep's -w retries) the
 * patterns that end in an incomplete UTF-8 sequence, from its lists (the
 * automaton built).  grep's regex matcher, retrying a -w match one byte
 * shorter, matches the text cut there: a character the cut splits is then
 * bytes that are no character, which such a tail matches byte for byte.
 * Returns 0, or -1 when out of memory. */
int fold_partials_setup(struct matcher_ac *m);

/* matcher_find for a matcher with m->fold. */
bool fold_find(const struct matcher_ac *m, const char *buf, size_t len, size_t from, bool exact,
	       struct matcher_hit *hit);

/* Whether a matcher with m->fold finds in buf[0..len) what the automaton
 * finds in it as it is, so that its matches may be counted there: no byte
 * that folding may change (fold_skip: none of 0x80 or more, or for
 * patterns all ASCII none of a character folding to ASCII), and no
 * pattern empty or not valid UTF-8 (whose matches are filtered). */
bool fold_counts_as_is(const struct matcher_ac *m, const char *buf, size_t len);

/* matcher_identify for a matcher with m->fold: the folded text's id. */
bool fold_identify(const struct matcher_ac *m, const char *p, size_t len, uint32_t *id);

void fold_state_free(struct fold_state *f);

/* ac_count_leftmost(ac, buf, len, 0), counted with the thread's memo in
 * *slot (matcher_memo.c): made there at the first call where it pays. */
size_t matcher_memo_count(const ac_automaton *ac, const uint8_t *buf, size_t len,
			  struct matcher_memo **slot);

#endif
