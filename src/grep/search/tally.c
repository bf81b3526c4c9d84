/* SPDX-License-Identifier: MIT */
/* tally.c - the searching thread's per-key counts (see tally.h).
 *
 * The counts of one input (or segment) are rows in the order their keys
 * were first met, found through a dense index (key -> 1 + row), which
 * tally_take resets through the rows: memory is the index (4 bytes a
 * key, per thread) and one row per key met.  A key is credited a line
 * once: its row remembers the serial of the line it last occurred in.
 * A save remembers how many rows there were; the first change of an
 * older row after it writes the row's old values to an undo list, so
 * that tally_restore puts them back and forgets the newer rows.
 */
#include "tally.h"

#include "grow.h"

#include <stdlib.h>

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* Matches are credited in batches of up to this many: the index entries
 * of a batch, then its rows, are asked of memory together, so that their
 * cache misses overlap instead of following one another (a huge list's
 * index and rows do not stay in cache while its automaton is stepped).
 * A batch is credited before a save and before the rows are taken. */
#define BATCH 256

/* A match waiting in the batch. */
struct pending {
	uint32_t id;       /* its key; then its row */
	uint32_t non_empty;
	uint64_t line;     /* the serial of its line */
};

/* An older row's values before its first change since the save. */
struct row_undo {
	size_t row;
	uint64_t matches, lines, last_line;
};

struct tally {
	const struct pattern_keys *keys;
	const uint32_t *tag_of;      /* the keys' tags, or NULL: a key is a pattern */
	bool count;                  /* --count-per-pattern */
	bool overlapping;            /* ... of every occurrence */
	bool all;                    /* --all-patterns */
	size_t n_rows;               /* keys that are rows (pattern_keys_is_row) */
	uint32_t *index;             /* per key: 1 + its row, or 0 */
	struct tally_row *row;
	size_t n, cap;
	uint64_t line;               /* serial of the line being credited */
	uint64_t saved_line;         /* the first serial after the save */
	size_t saved_rows;           /* rows at the save */
	struct row_undo *undo;
	size_t n_undo, cap_undo;
	struct pending batch[BATCH];
	size_t n_batch;
};

size_t tally_key_rows(const struct pattern_keys *keys)
{
	size_t n = 0;
	for (size_t k = 0; k < keys->n_keys; k++)
		n += pattern_keys_is_row(keys, (uint32_t)k);
	return n;
}

struct tally *tally_new(const struct search_options *opt, const struct pattern_keys *keys)
{
	struct tally *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	*t = (struct tally){
		.keys = keys,
		.tag_of = keys->tags->of,
		.count = opt->count_per_pattern,
		.overlapping = opt->overlapping,
		.all = opt->all_patterns,
		.index = calloc(keys->n_keys ? keys->n_keys : 1, sizeof *t->index),
		.line = 1,
		.saved_line = 1,
	};
	if (!t->index) {
		free(t);
		return NULL;
	}
	t->n_rows = tally_key_rows(keys);
	return t;
}

void tally_free(struct tally *t)
{
	if (!t)
		return;
	free(t->index);
	free(t->row);
	free(t->undo);
	free(t);
}

/* The row of key, made when it has none: 1 + its index, or 0 when out
 * of memory (noted for the search). */
static uint32_t row_of(struct tally *t, uint32_t key)
{
	if (t->index[key])
		return t->index[key];
	if (!pattern_keys_is_row(t->keys, key)) /* the matcher names the first alias */
		key = t->keys->first[key];
	if (t->index[key])
		return t->index[key];
	if (t->n == t->cap) {
		struct tally_row *row = grow_array(t->row, &t->cap, t->n + 1, sizeof *row, 64);
		if (!row) {
			matcher_note_failure();
			return 0;
		}
		t->row = row;
	}
	t->row[t->n] = (struct tally_row){ .key = key };
	return t->index[key] = (uint32_t)++t->n;
}

/* Keeps row r's values as they were at the save.  False when out of
 * memory (noted). */
static bool keep_for_restore(struct tally *t, size_t r)
{
	if (t->n_undo == t->cap_undo) {
		struct row_undo *u = grow_array(t->undo, &t->cap_undo, t->n_undo + 1, sizeof *u, 64);
		if (!u) {
			matcher_note_failure();
			return false;
		}
		t->undo = u;
	}
	const struct tally_row *row = &t->row[r];
	t->undo[t->n_undo++] = (struct row_undo){
		.row = r, .matches = row->matches, .lines = row->lines, .last_line = row->last_line,
	};
	return true;
}

/* Credits the batch: each match's key with an occurrence in its line
 * and its match.  False when out of memory. */
static bool credit_batch(struct tally *t)
{
	size_t n = t->n_batch;
	t->n_batch = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t i = row_of(t, t->batch[k].id);
		if (i == 0)
			return false;
		PREFETCH(&t->row[i - 1]);
		t->batch[k].id = i - 1;
	}
	for (size_t k = 0; k < n; k++) {
		const struct pending *p = &t->batch[k];
		struct tally_row *r = &t->row[p->id];
		if (r->last_line != p->line) {
			if (r->last_line < t->saved_line && p->id < t->saved_rows && !keep_for_restore(t, p->id))
				return false;
			r->last_line = p->line;
			r->lines++;
		}
		r->matches += p->non_empty;
	}
	return true;
}

/* Credits pattern's key with an occurrence in the current line, and a
 * match when non-empty (once the batch is full, or asked for).  False
 * when out of memory. */
static bool credit(struct tally *t, uint32_t pattern, bool non_empty)
{
	if (t->n_batch == BATCH && !credit_batch(t))
		return false;
	uint32_t key = t->tag_of ? t->tag_of[pattern] : pattern;
	PREFETCH(&t->index[key]);
	t->batch[t->n_batch++] = (struct pending){ .id = key, .non_empty = non_empty, .line = t->line };
	return true;
}

/* One line's scan: the line buf[.., le), its text ending at content. */
struct line_scan {
	struct tally *t;
	const char *buf;
	size_t le, content;
	char eol;
	bool zap_nul;
};

/* --count-per-pattern: a match of the line.  The matches counted are
 * those --count-matches counts (summary.c's count_match): the
 * non-empty ones starting in the line; an empty one (the empty pattern)
 * on the line's text makes its key occur there. */
static int count_hit(const struct matcher_hit *hit, void *ctx)
{
	struct line_scan *sc = ctx;
	size_t ms = hit->start;
	if (hit->end == ms) {
		if (ms <= sc->content && !credit(sc->t, hit->pattern, false))
			return 1;
		char c = ms < sc->content ? sc->buf[ms] : sc->eol;
		return ms >= sc->content || c == sc->eol || (sc->zap_nul && c == '\0');
	}
	if (ms >= sc->le)
		return 1;
	return !credit(sc->t, hit->pattern, true);
}

/* --all-patterns: an occurrence makes its key seen, with no line or
 * match counted.  Stops once every key is seen. */
static int seen_hit(const struct matcher_hit *hit, void *ctx)
{
	struct line_scan *sc = ctx;
	struct tally *t = sc->t;
	if (hit->start > sc->content || row_of(t, t->tag_of ? t->tag_of[hit->pattern] : hit->pattern) == 0)
		return 1;
	return sc->t->n == sc->t->n_rows;
}

void tally_line(struct tally *t, const struct matcher *m, const char *buf, size_t ls, size_t le,
		char eol, bool zap_nul)
{
	char last = le > ls ? buf[le - 1] : 'x';
	struct line_scan sc = {
		.t = t, .buf = buf, .le = le, .eol = eol, .zap_nul = zap_nul,
		.content = le - (le > ls && (last == eol || (zap_nul && last == '\0'))),
	};
	t->line++;
	if (m->matches_unseen)
		return;
	if (t->count && t->overlapping)
		matcher_each_overlapping(m, buf, le, ls, count_hit, &sc);
	else if (t->count)
		matcher_each(m, buf, le, ls, count_hit, &sc);
	/* the keys every occurrence shows, which counted matches may not */
	if (t->all && !(t->count && t->overlapping) && t->n < t->n_rows)
		matcher_each_overlapping(m, buf, le, ls, seen_hit, &sc);
}

bool tally_pending(const struct tally *t)
{
	return t->count || (t->all && t->n < t->n_rows);
}

void tally_save(struct tally *t)
{
	if (t->n_batch > 0)
		credit_batch(t);
	t->saved_line = t->line + 1;
	t->saved_rows = t->n;
	t->n_undo = 0;
}

void tally_restore(struct tally *t)
{
	t->n_batch = 0; /* all of it after the save */
	while (t->n_undo > 0) {
		const struct row_undo *j = &t->undo[--t->n_undo];
		t->row[j->row].matches = j->matches;
		t->row[j->row].lines = j->lines;
		t->row[j->row].last_line = j->last_line;
	}
	while (t->n > t->saved_rows)
		t->index[t->row[--t->n].key] = 0;
	t->line++; /* a fresh serial: the lines read again are new lines */
	t->saved_line = t->line;
}

struct tally_rows tally_take(struct tally *t)
{
	if (t->n_batch > 0)
		credit_batch(t);
	struct tally_rows rows = { .row = t->row, .n = t->n };
	for (size_t i = 0; i < t->n; i++)
		t->index[t->row[i].key] = 0;
	t->row = NULL;
	t->n = t->cap = 0;
	tally_save(t);
	if (rows.n == 0) {
		free(rows.row);
		rows.row = NULL;
	}
	return rows;
}

void tally_rows_free(struct tally_rows *rows)
{
	free(rows->row);
	*rows = (struct tally_rows){ .row = NULL };
}
