/* SPDX-License-Identifier: MIT */
/* pattern_keys.c - the names of the patterns and the rows matches count
 * in (see pattern_keys.h).
 */
#include "pattern_keys.h"

#include <stdlib.h>
#include <string.h>

/* The list qsort orders pattern indexes by: their text, then index. */
static const struct pattern_set *sorting;

static int by_text_then_index(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	struct pattern p = pattern_at(sorting, i), q = pattern_at(sorting, j);
	int c = memcmp(p.bytes, q.bytes, p.len < q.len ? p.len : q.len);
	if (c == 0 && p.len != q.len)
		c = p.len < q.len ? -1 : 1;
	return c ? c : (i > j) - (i < j);
}

/* first[i]: the first pattern written as pattern i.  -1 when out of
 * memory. */
static int link_by_text(struct pattern_keys *k)
{
	size_t n = k->text.count;
	for (size_t i = 0; i < n; i++)
		k->first[i] = (uint32_t)i;
	uint32_t *order = malloc((n ? n : 1) * sizeof *order);
	if (!order)
		return -1;
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	sorting = &k->text;
	qsort(order, n, sizeof *order, by_text_then_index);
	for (size_t i = 1; i < n; i++) {
		struct pattern p = pattern_at(&k->text, order[i - 1]), q = pattern_at(&k->text, order[i]);
		if (p.len == q.len && memcmp(p.bytes, q.bytes, p.len) == 0)
			k->first[order[i]] = k->first[order[i - 1]];
	}
	free(order);
	return 0;
}

int pattern_keys_init(struct pattern_keys *k, const struct pattern_set *ps,
		      const struct pattern_tags *tags, enum pattern_syntax syntax)
{
	size_t bytes = ps->count ? (size_t)ps->end[ps->count - 1] + 1 : 1;
	*k = (struct pattern_keys){
		.text = { .count = ps->count, .holds_nul = ps->holds_nul },
		.tags = tags,
		.n_keys = tags->of ? tags->names.count : ps->count,
		.by_text = syntax != SYNTAX_FIXED,
	};
	k->text.storage = malloc(bytes);
	k->text.end = malloc((ps->count ? ps->count : 1) * sizeof *k->text.end);
	k->first = malloc((ps->count ? ps->count : 1) * sizeof *k->first);
	if (!k->text.storage || !k->text.end || !k->first)
		return -1;
	if (ps->count) {
		memcpy(k->text.storage, ps->storage, bytes);
		memcpy(k->text.end, ps->end, ps->count * sizeof *ps->end);
	}
	return k->by_text ? link_by_text(k) : 0;
}

void pattern_keys_link(struct pattern_keys *k, const struct matcher *m)
{
	if (k->by_text)
		return; /* linked by pattern_keys_init */
	for (size_t i = 0; i < k->text.count; i++) {
		struct pattern p = pattern_at(&k->text, i);
		uint32_t id;
		/* one that never matches (a NUL where it cannot, see matcher.c)
		 * is told apart from every other */
		k->first[i] = matcher_identify(m, p.bytes, p.len, &id) && id < i ? id : (uint32_t)i;
	}
}

void pattern_keys_free(struct pattern_keys *k)
{
	free(k->text.storage);
	free(k->text.end);
	free(k->first);
	*k = (struct pattern_keys){ .text = { .storage = NULL } };
}

struct pattern pattern_keys_row_name(const struct pattern_keys *k, uint32_t key)
{
	return k->tags->of ? pattern_at(&k->tags->names, key) : pattern_at(&k->text, key);
}

void pattern_keys_name(const struct pattern_keys *k, uint32_t pattern, enum show_pattern what,
		       struct pattern *name, uint64_t *number)
{
	*name = (struct pattern){ .bytes = "", .len = 0 };
	*number = (uint64_t)pattern + 1;
	if (what == SHOW_PATTERN_TAG)
		*name = pattern_keys_row_name(k, pattern_keys_key(k, pattern));
	else if (what == SHOW_PATTERN_TEXT)
		*name = pattern_at(&k->text, pattern);
}
