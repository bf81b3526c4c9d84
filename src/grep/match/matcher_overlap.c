/* SPDX-License-Identifier: MIT */
/* matcher_overlap.c - every occurrence of every pattern, for the
 * Aho-Corasick matcher (matcher_each_overlapping, --overlapping).
 *
 * Owns: turning the engine's overlapping matches (ac_scan_overlapping:
 * by end, longest first) into the matcher's occurrences: those of the
 * view's own part on character boundaries, those that qualify on their
 * own under -w and -x (ac_occurrence_qualifies), ids as given, and the
 * order the contract promises (by start, longest first).  The reorder
 * needs no more than the matches that may still be passed by a later
 * one: a match that ends at view offset E is reported after every match
 * that starts before E - max_len (the longest pattern), so those are
 * handed on then, from a small heap.  The folded views of -i in UTF-8
 * are matcher_fold.c's (fold_each_overlapping).
 */
#include "matcher_ac_internal.h"

#include "grow.h"

#include <stdlib.h>
#include <string.h>

/* Occurrences held in place before the heap moves to malloc'd memory:
 * a line seldom has more waiting at once. */
#define OVERLAP_SMALL 64

struct overlap {
	const struct matcher_ac *m;
	const char *buf;     /* the buffer, for -w and -x */
	size_t len;
	matcher_match_fn cb;
	void *ctx;
	const struct view *v; /* the view being scanned */
	struct matcher_hit *heap; /* a binary heap, first (by `before`) on top */
	size_t n, cap;
	int rc;              /* the callback's non-zero answer, or -1 on failure */
	struct matcher_hit small[OVERLAP_SMALL];
};

/* The order of the contract: by start, the longest first, then by id. */
static bool before(const struct matcher_hit *a, const struct matcher_hit *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	if (a->end != b->end)
		return a->end > b->end;
	return a->pattern < b->pattern;
}

static bool push(struct overlap *o, struct matcher_hit hit)
{
	if (o->n == o->cap) {
		size_t cap = o->cap;
		struct matcher_hit *h = grow_array(o->heap == o->small ? NULL : o->heap, &cap,
						   o->n + 1, sizeof *h, 2 * OVERLAP_SMALL);
		if (!h)
			return false;
		if (o->heap == o->small)
			memcpy(h, o->small, o->n * sizeof *h);
		o->heap = h;
		o->cap = cap;
	}
	size_t i = o->n++;
	while (i > 0 && before(&hit, &o->heap[(i - 1) / 2])) {
		o->heap[i] = o->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	o->heap[i] = hit;
	return true;
}

static struct matcher_hit pop(struct overlap *o)
{
	struct matcher_hit top = o->heap[0], last = o->heap[--o->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= o->n)
			break;
		if (c + 1 < o->n && before(&o->heap[c + 1], &o->heap[c]))
			c++;
		if (!before(&o->heap[c], &last))
			break;
		o->heap[i] = o->heap[c];
		i = c;
	}
	if (o->n > 0)
		o->heap[i] = last;
	return top;
}

/* Hands on the held occurrences that start before buffer offset `limit`
 * (SIZE_MAX: all of them), in order.  Returns the callback's answer. */
static int hand_on(struct overlap *o, size_t limit)
{
	while (o->n > 0 && o->heap[0].start < limit) {
		struct matcher_hit hit = pop(o);
		int rc = o->cb(&hit, o->ctx);
		if (rc != 0) {
			o->rc = rc;
			return rc;
		}
	}
	return 0;
}

static int overlap_cb(const ac_match *am, void *ctx)
{
	struct overlap *o = ctx;
	const struct view *v = o->v;
	if (am->start < v->own && view_boundary(v, am->start)) {
		size_t s = view_to_buf(v, am->start), e = view_to_buf(v, am->end);
		uint32_t id = am->pattern;
		if (ac_occurrence_qualifies(o->m, o->buf, o->len, s, e, &id) &&
		    !push(o, (struct matcher_hit){
				     .start = s, .end = e, .pattern = ac_given_id(o->m, id),
			     })) {
			matcher_note_failure();
			o->rc = -1;
			return 1;
		}
	}
	/* every later match ends at am->end or after: it starts at or after
	 * view offset am->end - max_len */
	size_t max_len = o->m->max_len;
	return hand_on(o, view_to_buf(v, am->end > max_len ? am->end - max_len : 0));
}

int overlap_view(struct overlap *o, const struct view *v, size_t vfrom)
{
	o->v = v;
	if (ac_scan_overlapping(o->m->ac, (const uint8_t *)v->text, v->len, vfrom, overlap_cb, o) ||
	    o->rc)
		return o->rc;
	return hand_on(o, SIZE_MAX);
}

int ac_each_overlapping(const struct matcher *base, const char *buf, size_t len, size_t from,
			matcher_match_fn cb, void *ctx)
{
	const struct matcher_ac *m = (const struct matcher_ac *)base;
	struct overlap o = {
		.m = m, .buf = buf, .len = len, .cb = cb, .ctx = ctx, .cap = OVERLAP_SMALL,
	};
	o.heap = o.small;
	struct view v = { .text = buf, .len = len, .own = SIZE_MAX };
	int rc = m->fold ? fold_each_overlapping(m, buf, len, from, &o) : overlap_view(&o, &v, from);
	if (o.heap != o.small)
		free(o.heap);
	return rc < 0 ? 0 : rc;
}
