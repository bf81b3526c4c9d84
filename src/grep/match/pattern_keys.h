/* SPDX-License-Identifier: MIT */
/* pattern_keys.h - the names of the patterns, and what a match is
 * credited to.
 *
 * Owns: the rules that say which pattern a report names and which row of
 * a per-pattern report a match counts in.  A match reports the first
 * listed of the patterns the matcher cannot tell apart (identical, or
 * equal under -i: matcher_identify); its row (key) is its tag when a
 * tagged list was given (--tagged-file; opts gives every pattern a tag
 * then, an untagged one its own text), else that pattern itself.  Keeps
 * a copy of the pattern list, which the matcher takes over, for the
 * names.  Immutable once linked; any thread may read it.
 */
#ifndef ACGREP_PATTERN_KEYS_H
#define ACGREP_PATTERN_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matcher.h"
#include "options/option_types.h"

struct pattern_keys {
	struct pattern_set text;         /* the patterns as given (a copy) */
	const struct pattern_tags *tags; /* the run's; tags->of NULL: untagged */
	uint32_t *first;                 /* per pattern: the first listed that the
					    matcher cannot tell from it */
	size_t n_keys;                   /* tags, or patterns */
	bool by_text;                    /* -E/-G: patterns the same as written are
					    told apart from no other */
};

/* Copies the pattern list ps, of `syntax`, before matcher_build takes
 * it; tags (kept, not copied: it must outlive k) are its tags.  Returns
 * 0, or -1 when out of memory (k is then empty; free it anyway). */
int pattern_keys_init(struct pattern_keys *k, const struct pattern_set *ps,
		      const struct pattern_tags *tags, enum pattern_syntax syntax);

/* Asks the matcher built from that list which patterns it tells apart
 * (linear in the list's bytes); an -E/-G list's patterns are told apart
 * unless written alike (the matcher knows their expansions only). */
void pattern_keys_link(struct pattern_keys *k, const struct matcher *m);

void pattern_keys_free(struct pattern_keys *k);

/* The row a match of pattern id `pattern` (a matcher_hit's) counts in. */
static inline uint32_t pattern_keys_key(const struct pattern_keys *k, uint32_t pattern)
{
	return k->tags->of ? k->tags->of[pattern] : pattern;
}

/* Whether key is a row of its own: a tag, or a pattern that is the first
 * of those the matcher cannot tell apart. */
static inline bool pattern_keys_is_row(const struct pattern_keys *k, uint32_t key)
{
	return k->tags->of || k->first[key] == key;
}

/* The name of a row: its tag, or its pattern's text. */
struct pattern pattern_keys_row_name(const struct pattern_keys *k, uint32_t key);

/* What --show-pattern=what prints for a match of pattern id `pattern`:
 * SHOW_PATTERN_TAG its row's name, SHOW_PATTERN_TEXT its text (in *name);
 * SHOW_PATTERN_NUMBER its 1-based number (in *number, name empty). */
void pattern_keys_name(const struct pattern_keys *k, uint32_t pattern, enum show_pattern what,
		       struct pattern *name, uint64_t *number);

#endif
