/* SPDX-License-Identifier: MIT */
/* ac_confirm.c - building the table that confirms HASH candidates.
 *
 * Owns: ac_confirm_build, which spells each pattern back out of the
 * compiled tables (a state whose longest output is as long as the state is
 * deep ends its own pattern; the path to it, read through parents and
 * edge classes, is the pattern), so that compiled and loaded automata get
 * the same table; and the choice of when a set gets one (ac_confirm.h).
 */
#include "ac_confirm.h"
#include "ac_internal.h"

#include <stdlib.h>

/* The byte each class stands for: under AC_FOLD_ASCII a letter's class is
 * its lowercase form's (the patterns were folded so).  Class 0 stands for
 * no byte of a pattern. */
static void class_bytes(const ac_automaton *ac, uint8_t byte_of[257])
{
	for (int b = 255; b >= 0; b--)
		if (!(ac->flags & AC_FOLD_ASCII) || b < 'A' || b > 'Z')
			byte_of[ac->cls[b]] = (uint8_t)b;
}

/* The state each state's edge comes from; parent[AC_ROOT] is AC_ROOT. */
static void parents_fill(const ac_automaton *ac, uint32_t *parent)
{
	parent[AC_ROOT] = AC_ROOT;
	for (uint32_t s = 0; s < ac->n_states; s++)
		for (uint32_t k = ac->first[s]; k < ac->first[s + 1] && k < ac->n_states; k++)
			parent[k] = s;
}

/* Whether state s ends its own pattern (its longest output is as long as
 * it is deep), with *d its depth; called for ascending s, *d starting at
 * 0: ids are breadth-first (depth_start, max_len + 2 entries). */
static bool own_pattern(const ac_automaton *ac, uint32_t s, uint32_t *d)
{
	while (*d + 2 < ac->max_len + 2 && ac->depth_start[*d + 1] <= s)
		++*d;
	return ac->out_len[s] == *d;
}

/* The bucket of the pattern at p. */
static uint32_t key_of(const struct ac_confirm *cf, const uint8_t *p)
{
	uint32_t load = 0;
	memcpy(&load, p, cf->key_width);
	return confirm_key(cf, load);
}

/* Fills cf's bytes, first[] and entries from the states that end their
 * own pattern, bucketed shortest first: false when a bucket would hold
 * more than AC_CONFIRM_BUCKET_MAX, or out of memory. */
static bool entries_fill(const ac_automaton *ac, struct ac_confirm *cf, const uint32_t *parent)
{
	uint8_t byte_of[257] = { 0 };
	class_bytes(ac, byte_of);
	uint32_t n_buckets = (1u << cf->bits), at = 0, d = 0;
	/* the patterns and the bucket sizes, then the entries: breadth-first
	 * order is shortest first, and so is each bucket */
	for (uint32_t s = 1; s < ac->n_states; s++) {
		if (!own_pattern(ac, s, &d))
			continue;
		uint32_t depth = d;
		uint8_t *p = cf->bytes + at;
		uint32_t t = s, i = depth;
		for (; t != AC_ROOT && i > 0; t = parent[t]) {
			p[--i] = byte_of[ac->in_cls[t]];
			cf->masks[at + i] = (ac->flags & AC_FOLD_ASCII) && p[i] >= 'a' && p[i] <= 'z' ? 0x20 : 0;
		}
		if (t != AC_ROOT || i != 0) /* a loaded image's tables say otherwise */
			return false;
		memset(p + depth, 0xff, AC_CONFIRM_PAD);
		memset(cf->masks + at + depth, 0xff, AC_CONFIRM_PAD);
		uint32_t b = key_of(cf, p);
		if (++cf->first[b + 1] > AC_CONFIRM_BUCKET_MAX)
			return false;
		at += depth + AC_CONFIRM_PAD;
	}
	for (uint32_t b = 0; b < n_buckets; b++)
		cf->first[b + 1] += cf->first[b];
	at = 0;
	d = 0;
	uint32_t *fill = malloc((size_t)n_buckets * sizeof *fill);
	if (!fill)
		return false;
	memcpy(fill, cf->first, (size_t)n_buckets * sizeof *fill);
	for (uint32_t s = 1; s < ac->n_states; s++) {
		if (!own_pattern(ac, s, &d))
			continue;
		uint32_t b = key_of(cf, cf->bytes + at);
		cf->entry[fill[b]++] = (struct ac_confirm_entry){ .at = at, .len = d, .id = ac->out_id[s] };
		at += d + AC_CONFIRM_PAD;
	}
	free(fill);
	return true;
}

void ac_confirm_free(ac_automaton *ac)
{
	struct ac_confirm *cf = ac->confirm;
	if (!cf)
		return;
	free(cf->first);
	free(cf->entry);
	free(cf->bytes);
	free(cf->masks);
	free(cf);
	ac->confirm = NULL;
}

void ac_confirm_build(ac_automaton *ac)
{
	ac_confirm_free(ac);
	if (ac->path != AC_PATH_HASH || ac->n_states >= AC_LARGE_STATES || ac->has_empty || !ac->min_len ||
	    ac->max_len > AC_CONFIRM_MAX_LEN)
		return;
	uint32_t n = 0, d = 0;
	size_t bytes = 0;
	for (uint32_t s = 1; s < ac->n_states; s++) {
		if (!own_pattern(ac, s, &d))
			continue;
		n++;
		if ((bytes += d + AC_CONFIRM_PAD) > AC_CONFIRM_MAX_BYTES)
			return;
	}
	uint32_t bits = 6;
	while ((1u << bits) < 2 * n)
		bits++;
	struct ac_confirm *cf = ac->confirm = calloc(1, sizeof *cf);
	uint32_t *parent = malloc((size_t)ac->n_states * sizeof *parent);
	if (!cf || !parent)
		goto fail;
	*cf = (struct ac_confirm){
		.key_width = ac->min_len < 4 ? (uint32_t)ac->min_len : 4,
		.bits = bits,
		.first = calloc((1u << bits) + 1, sizeof *cf->first),
		.entry = malloc((size_t)n * sizeof *cf->entry),
		.bytes = malloc(bytes),
		.masks = malloc(bytes),
	};
	memset(&cf->key_mask, 0xff, cf->key_width);
	if (ac->flags & AC_FOLD_ASCII)
		cf->key_fold = cf->key_mask & 0x20202020u;
	if (!cf->first || !cf->entry || !cf->bytes || !cf->masks)
		goto fail;
	parents_fill(ac, parent);
	if (!entries_fill(ac, cf, parent))
		goto fail;
	free(parent);
	ac->memory += (size_t)((1u << bits) + 1) * 4 + (size_t)n * sizeof *cf->entry + 2 * bytes;
	return;
fail:
	free(parent);
	ac_confirm_free(ac);
}
