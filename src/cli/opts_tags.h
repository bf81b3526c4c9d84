/* SPDX-License-Identifier: MIT */
/* opts_tags.h - tagged pattern lists (--tagged-file): TAG<TAB>PATTERN
 * lines, and the tag of every pattern of the list.
 *
 * Owns: the format of a tagged list (the tag is the text before the first
 * TAB, every TAB after it separates, the pattern is the rest of the line)
 * and its diagnostics; the distinct tags in order of first use, found
 * through a hash table (linear in the list); the rule that, once a
 * tagged list is given, every pattern has a tag, an untagged one (-e, -f,
 * the operand) its own text.  Used only by opts.c.
 */
#ifndef ACGREP_OPTS_TAGS_H
#define ACGREP_OPTS_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/config.h"
#include "opts_patterns.h"

/* The tags being built alongside a pat_builder.  Zeroed: none yet. */
struct tag_builder {
	struct pat_builder names; /* the distinct tags, in order of first use */
	uint32_t *of;             /* per pattern so far: its tag's index in names */
	size_t n_of, cap_of;
	uint32_t *slots;          /* hash table: a name's index + 1, 0 when free */
	size_t n_slots;           /* a power of two, or 0 */
	bool active;              /* a tagged list was given */
};

/* Adds the TAG<TAB>PATTERN lines of `path` ("-" is standard input): the
 * patterns to pb, their tags to tb, after giving the untagged patterns
 * already in pb their own text as tag.  Split on '\n' whatever -z says,
 * as -f is; a final newline only ends the last line; an empty file adds
 * nothing.  A line without a TAB, with an empty tag or an empty pattern,
 * or ending in CR is an error "acgrep: FILE:LINE: why".  Returns 0, or 2
 * after printing the message. */
int opts_tags_read_file(struct tag_builder *tb, struct pat_builder *pb, const char *path);

/* After the pattern list is final (cfg->patterns, no pattern at all
 * already made the empty one): when a tagged list was given, tags the
 * patterns still untagged with their own text and moves the tags into
 * cfg->tags; otherwise cfg->tags.of stays NULL.  `no_pattern`: the list
 * was empty, so the one pattern is the stand-in for none, which no
 * --show-pattern field may name: it gets the empty tag, and the field
 * names tags.  Returns 0, or 2 after printing "memory exhausted". */
int opts_tags_finish(struct tag_builder *tb, struct config *cfg, bool no_pattern);

/* Frees what the builder holds (what finish moved out is not its). */
void opts_tags_free(struct tag_builder *tb);

/* Frees cfg->tags (opts_free); calling it twice is harmless. */
void opts_tags_release(struct pattern_tags *tags);

#endif
