/* SPDX-License-Identifier: MIT */
/* fold_internal.h - what fold_utf8.c and fold_text.c share: the table.
 *
 * A fold_table holds the current locale's towupper for the BMP and the
 * facts about characters the fold needs (see fold_utf8.h).
 */
#ifndef ACGREP_FOLD_INTERNAL_H
#define ACGREP_FOLD_INTERNAL_H

#include <wctype.h>

#include "fold_utf8.h"

#define BMP 0x10000

struct fold_table {
	/* towupper of each BMP character (ASCII: itself, the automaton folds
	 * it; 0: ask towupper, the answer lies outside the BMP) */
	uint16_t upper[BMP];
	uint8_t narrow[BMP / 8]; /* DFA-narrow characters */
	bool ascii_needs[128];   /* ASCII with a non-ASCII case counterpart */
	bool to_ascii_lead[256]; /* lead bytes of characters folding to ASCII */
};

/* DFA-narrow: c folds to another character but is neither that one's
 * lowercase nor a lonesome lowercase letter, so case_folded_counterparts
 * of the other members of its class leave it out. */
bool fold_narrow_of(uint32_t c);

/* Encodes c (at most 0x7FFFFFFF) in UTF-8; returns its length. */
size_t fold_encode(uint32_t c, char *out);

/* The canonical form of a non-ASCII character c. */
static inline uint32_t fold_upper_of(const struct fold_table *t, uint32_t c)
{
	if (c < BMP) {
		uint16_t u = t->upper[c];
		return u ? u : (uint32_t)towupper((wint_t)c);
	}
	return c <= 0x10FFFF ? (uint32_t)towupper((wint_t)c) : c;
}

static inline bool fold_is_narrow(const struct fold_table *t, uint32_t c)
{
	if (c < BMP)
		return t->narrow[c >> 3] >> (c & 7) & 1;
	return c <= 0x10FFFF && fold_narrow_of(c);
}

#endif
