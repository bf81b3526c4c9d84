/* pattern_keys.c - the names of the patterns and the rows matches count
 * in (see pattern_keys.h).
 */
#include "pattern_keys.h"

#include <stdlib.h>
#include <string.h>

int pattern_keys_init(struct pattern_keys *k, const struct config *cfg)
{
	const struct pattern_set *ps = &cfg->patterns;
	size_t bytes = ps->count ? (size_t)ps->end[ps->count - 1] + 1 : 1;
	*k = (struct pattern_keys){
		.text = { .count = ps->count, .holds_nul = ps->holds_nul },
		.tags = &cfg->tags,
		.n_keys = cfg->tags.of ? cfg->tags.names.count : ps->count,
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
	return 0;
}

void pattern_keys_link(struct pattern_keys *k, const struct matcher *m)
{
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
