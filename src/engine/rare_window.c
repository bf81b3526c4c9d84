/* SPDX-License-Identifier: MIT */
/* rare_window.c - the RARE path's window test: which four bytes may stand
 * around a rare-set byte that a match holds.
 *
 * Owns: filling the hashed-window table (window_bits, which the RARE path
 * has no other use for) with every window `b2 b1 R a1 a2` some pattern
 * holds around a byte R of the rare set, two bytes each side, from the
 * trie's edges on those bytes; where a pattern begins or ends within two
 * bytes of R, every byte it leaves open (256 windows for one such byte).
 * The test at a candidate is ac_rare_window_fits (ac_internal.h).  It is
 * left off (rare_windowed false, the table zero) when the windows to mark
 * would pass more than RARE_WINDOW_MAX_MARKS: two bytes open next to one
 * rare byte are 65,536 windows, a quarter of the table.
 *
 * Why: the one-byte neighbour test (rare_before, rare_after) lets through
 * most `@` of e-mail-like text that no pattern holds (`port@0`,
 * `foo.bar@host` for a set of other hosts); with two bytes each side, the
 * MAINTAINERS file's 1,816 addresses over the Linux tree pass 31,000
 * candidates instead of 98,600, for 22,640 matches.
 */
#include "ac_internal.h"

#include <string.h>

/* At most this many windows are marked (1/8 of the table's bits); past it
 * the test passes too much to pay for its look-up. */
#define RARE_WINDOW_MAX_MARKS (1u << 15)
/* A byte the pattern leaves open: any of the 256 */
#define OPEN 0x100u

/* The windows b2 b1 R a1 a2 for every value of the bytes given as OPEN,
 * counted against *budget first: false when they do not fit in it. */
static bool mark_windows(ac_automaton *ac, unsigned b2, unsigned b1, unsigned a1, unsigned a2,
			 size_t *budget)
{
	if ((b2 | b1 | a1 | a2) < OPEN) { /* none open: one window */
		if (*budget == 0)
			return false;
		--*budget;
		unsigned h = ac_window_hash(ac_rare_window_key(b2, b1, a1, a2), UINT32_MAX, ac->window_fold);
		ac->window_bits[h >> 6] |= UINT64_C(1) << (h & 63);
		return true;
	}
	unsigned lo[4] = { b2, b1, a1, a2 }, hi[4];
	size_t n = 1;
	for (int i = 0; i < 4; i++) {
		hi[i] = lo[i] == OPEN ? 255 : lo[i];
		lo[i] = lo[i] == OPEN ? 0 : lo[i];
		n *= hi[i] - lo[i] + 1;
	}
	if (n > *budget)
		return false;
	*budget -= n;
	for (unsigned w = lo[0]; w <= hi[0]; w++)
		for (unsigned x = lo[1]; x <= hi[1]; x++)
			for (unsigned y = lo[2]; y <= hi[2]; y++)
				for (unsigned z = lo[3]; z <= hi[3]; z++) {
					unsigned h = ac_window_hash(ac_rare_window_key(w, x, y, z), UINT32_MAX,
								    ac->window_fold);
					ac->window_bits[h >> 6] |= UINT64_C(1) << (h & 63);
				}
	return true;
}

/* The windows around the rare byte on the edge into state c, whose two
 * bytes before are b2 b1 (OPEN where the pattern begins closer): every
 * pair of bytes a pattern continues with after it, one or both OPEN where
 * a pattern ends closer. */
static bool mark_after(ac_automaton *ac, uint32_t c, unsigned b2, unsigned b1, size_t *budget)
{
	const struct ac_trie *t = &ac->trie;
	if (t->terminal[c] != AC_NONE)
		return mark_windows(ac, b2, b1, OPEN, OPEN, budget);
	for (uint32_t k = ac->first[c]; k < ac->first[c + 1]; k++) {
		if (t->terminal[k] != AC_NONE) {
			if (!mark_windows(ac, b2, b1, t->inbyte[k], OPEN, budget))
				return false;
			continue;
		}
		for (uint32_t g = ac->first[k]; g < ac->first[k + 1]; g++)
			if (!mark_windows(ac, b2, b1, t->inbyte[k], t->inbyte[g], budget))
				return false;
	}
	return true;
}

/* The table is zero here, as ac_new left it: one path fills it a compile. */
void ac_rare_window_fill(ac_automaton *ac)
{
	const struct ac_trie *t = &ac->trie;
	const uint8_t *inbyte = t->inbyte;
	bool rare[256] = { false };
	for (uint32_t i = 0; i < 3; i++)
		rare[ac->rare_set[i]] = true;
	ac->window_fold = ac->flags & AC_FOLD_ASCII ? 0x20202020u : 0;
	size_t budget = RARE_WINDOW_MAX_MARKS;
	bool fits = true;
	/* each edge on a rare byte, into c: the two bytes before it are on the
	 * edges into c's parent s and s's parent up (OPEN from the root), which
	 * rise with c (breadth-first ids: the children of s are first[s] ..
	 * first[s+1]-1) */
	uint32_t s = AC_ROOT, up = AC_ROOT;
	for (uint32_t c = AC_ROOT + 1; fits && c < t->n_nodes; c++) {
		if (ac->n_rare == 1) { /* the usual set, '@': memchr to the next edge on it */
			const uint8_t *next = memchr(inbyte + c, ac->rare_set[0], t->n_nodes - c);
			if (!next)
				break;
			c = (uint32_t)(next - inbyte);
		} else if (!rare[inbyte[c]]) {
			continue;
		}
		while (ac->first[s + 1] <= c)
			s++;
		while (ac->first[up + 1] <= s)
			up++;
		unsigned b1 = s == AC_ROOT ? OPEN : inbyte[s], b2 = up == AC_ROOT ? OPEN : inbyte[up];
		fits = mark_after(ac, c, b2, b1, &budget);
	}
	if (!fits)
		memset(ac->window_bits, 0, sizeof ac->window_bits);
	ac->rare_windowed = fits;
}
