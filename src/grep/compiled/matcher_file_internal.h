/* SPDX-License-Identifier: MIT */
/* matcher_file_internal.h - the sections of a compiled pattern set, shared
 * by matcher_file.c (the set) and matcher_file_regex.c (what an -E/-G set
 * adds).
 */
#ifndef ACGREP_MATCHER_FILE_INTERNAL_H
#define ACGREP_MATCHER_FILE_INTERNAL_H

#include <stdint.h>

#include "match/matcher_ac_internal.h"
#include "options/option_types.h"
#include "secfile.h"

/* Section "GRmt" (fixed-width fields, no padding).  The options are the
 * command line's at compile time; the facts follow from them and the
 * patterns.  spans_eol is the built matcher's: with the same -z it is what
 * the same patterns give.  syntax is enum pattern_syntax: 0 (-F) in the
 * sets written before -E/-G had a compiled form, where it was a zero
 * field, so that they load unchanged. */
struct file_meta {
	uint32_t ignore_case, word, line, utf8, null_data, binary_text, engine, scan_path;
	uint32_t grep_kwset, spans_eol, holds_nul, has_given, fold, fold_filter, fold_ascii;
	uint32_t tagged, tags_nul, syntax; /* tags_nul: some tag holds a NUL */
	uint64_t list_count, list_bytes, n_engine, n_narrow, n_bad, n_tags, tag_bytes;
};
_Static_assert(sizeof(struct file_meta) == 18 * 4 + 7 * 8, "struct file_meta has no padding");

#define T_META SECFILE_TAG('G', 'R', 'm', 't')
#define T_LIST_TEXT SECFILE_TAG('G', 'R', 'l', 't')
#define T_LIST_END SECFILE_TAG('G', 'R', 'l', 'e')
#define T_GIVEN SECFILE_TAG('G', 'R', 'g', 'v')
#define T_NARROW SECFILE_TAG('G', 'R', 'n', 'w')
#define T_BAD SECFILE_TAG('G', 'R', 'b', 'd')
#define T_TAG_TEXT SECFILE_TAG('G', 'R', 't', 't')
#define T_TAG_END SECFILE_TAG('G', 'R', 't', 'e')
#define T_TAG_OF SECFILE_TAG('G', 'R', 't', 'o')

/* A pointer into the image for a field that is only read. */
static inline void *unconst(const void *p)
{
	return (void *)(uintptr_t)p;
}

/* The list of sections text_tag and end_tag (count >= 1 patterns in
 * `bytes` bytes): each pattern inside the storage, after the one before
 * and followed by a NUL.  Fills *list and returns true, or false when it
 * is not so. */
bool list_view(const struct secfile *sf, uint32_t text_tag, uint32_t end_tag, size_t count,
	       size_t bytes, bool holds_nul, struct pattern_set *list);

/* Adds to w what an -E/-G set (m compiled with a syntax not
 * SYNTAX_FIXED) holds beyond a -F set's sections: its literals' anchor
 * table and, with -i's fold, the literals the fold's lists index.
 * Returns 0, or -1 when out of memory. */
int regex_sections_add(struct secfile_writer *w, const struct matcher_ac *m);

/* Loads those sections of an -E/-G set (mt->syntax not SYNTAX_FIXED) into
 * m, whose automaton is loaded: m->anchor_first (a copy of its own), and
 * in *lits a view of the literals the fold's lists index (count 0 when
 * there are none).  Returns NULL, or what is corrupt ("memory exhausted"
 * when memory is). */
const char *regex_sections_load(const struct secfile *sf, const struct file_meta *mt,
				struct matcher_ac *m, struct pattern_set *lits);

#endif
