/* SPDX-License-Identifier: MIT */
/* matcher_file_regex.c - what a compiled -E/-G pattern set holds beyond a
 * -F set's sections (see matcher_file_internal.h).
 *
 * The -F sections carry the list as the user wrote it and, in "GRgv", the
 * pattern each of the automaton's literals came from (several literals
 * per pattern: the ids rise, not strictly).  Added here: "GRrx" (struct
 * regex_meta); "GRaf", when some literal has anchors, the matcher's
 * anchor table (matcher_ac.anchor_first, per engine id and kind of
 * anchors); "GRxt" and "GRxe", when -i's fold keeps lists of literals
 * (matcher_fold.c), those literals (the fold's lists index them, not the
 * list as given).
 */
#include "matcher_file_internal.h"

#include "ac_file.h"

#include <stdlib.h>
#include <string.h>

/* Section "GRrx" (fixed-width fields, no padding). */
struct regex_meta {
	uint32_t anchored; /* "GRaf" is there */
	uint32_t lits_nul; /* some literal of "GRxt" holds a NUL */
	uint64_t n_lits, lit_bytes; /* "GRxt": 0 and 0 when absent */
};
_Static_assert(sizeof(struct regex_meta) == 2 * 4 + 2 * 8, "struct regex_meta has no padding");

#define T_REGEX SECFILE_TAG('G', 'R', 'r', 'x')
#define T_ANCHORS SECFILE_TAG('G', 'R', 'a', 'f')
#define T_LIT_TEXT SECFILE_TAG('G', 'R', 'x', 't')
#define T_LIT_END SECFILE_TAG('G', 'R', 'x', 'e')

int regex_sections_add(struct secfile_writer *w, const struct matcher_ac *m)
{
	const struct pattern_set *lits = m->fold ? &m->fold->orig : NULL;
	bool have_lits = lits && lits->count > 0;
	struct regex_meta rm = {
		.anchored = m->anchor_first != NULL,
		.lits_nul = have_lits && lits->holds_nul,
		.n_lits = have_lits ? lits->count : 0,
		.lit_bytes = have_lits ? (size_t)lits->end[lits->count - 1] + 1 : 0,
	};
	int rc = secfile_add_copy(w, T_REGEX, &rm, sizeof rm);
	if (m->anchor_first)
		rc |= secfile_add(w, T_ANCHORS, m->anchor_first,
				  ac_pattern_count(m->ac) * sizeof *m->anchor_first);
	if (have_lits) {
		rc |= secfile_add(w, T_LIT_TEXT, lits->storage, (size_t)rm.lit_bytes);
		rc |= secfile_add(w, T_LIT_END, lits->end, lits->count * sizeof *lits->end);
	}
	return rc ? -1 : 0;
}

/* The anchor table of n engine ids: a copy in m->anchor_first, each entry
 * an engine id or NO_ANCHORED.  NULL, or what is wrong. */
static const char *anchors_load(const struct secfile *sf, size_t n, struct matcher_ac *m)
{
	if (n == 0 || n > SIZE_MAX / sizeof *m->anchor_first)
		return "anchors";
	const uint32_t *table = secfile_section(sf, T_ANCHORS, n * sizeof *m->anchor_first);
	if (!table)
		return "anchors";
	for (size_t i = 0; i < 4 * n; i++)
		if (table[i] != NO_ANCHORED && table[i] >= n)
			return "anchors";
	if (!(m->anchor_first = malloc(n * sizeof *m->anchor_first)))
		return "memory exhausted";
	memcpy(m->anchor_first, table, n * sizeof *m->anchor_first);
	return NULL;
}

const char *regex_sections_load(const struct secfile *sf, const struct file_meta *mt,
				struct matcher_ac *m, struct pattern_set *lits)
{
	const struct regex_meta *raw = secfile_section(sf, T_REGEX, sizeof *raw);
	struct regex_meta rm;
	*lits = (struct pattern_set){ .count = 0 };
	if (!raw)
		return "-E/-G literals";
	memcpy(&rm, raw, sizeof rm);
	/* literals as the list's: 32-bit offsets, kept only for the fold */
	if (rm.anchored > 1 || rm.lits_nul > 1 || rm.n_lits > UINT32_MAX ||
	    rm.n_lits > SIZE_MAX / sizeof(size_t) || rm.lit_bytes > (uint64_t)UINT32_MAX + 1 ||
	    rm.lit_bytes > SIZE_MAX / 2 || (rm.n_lits && !mt->fold) ||
	    (!rm.n_lits && (rm.lit_bytes || rm.lits_nul)) ||
	    (rm.n_lits && !list_view(sf, T_LIT_TEXT, T_LIT_END, (size_t)rm.n_lits,
				     (size_t)rm.lit_bytes, rm.lits_nul, lits)))
		return "-E/-G literals";
	size_t ignored;
	if (!rm.anchored)
		return secfile_find(sf, T_ANCHORS, &ignored) ? "anchors" : NULL;
	return anchors_load(sf, (size_t)mt->n_engine, m);
}
