/* SPDX-License-Identifier: MIT */
/* ac_confirm.h - confirming a HASH candidate by comparing patterns.
 *
 * Owns: the table of a set's patterns bucketed by a hash of their first
 * key_width bytes, and the test of which of them occur at a candidate
 * position.  The automaton confirms a candidate by stepping it byte by
 * byte, each step a load that depends on the last one: over a thousand
 * words its rows outgrow the L2 cache and the steps wait on it (half of
 * `-c -f words1k` over English).  Here a candidate costs one hash and an
 * 8-byte compare per pattern in its bucket, loads the CPU overlaps across
 * candidates.  Built from the compiled tables (ac_compile and ac_load
 * alike) for HASH sets with few patterns per bucket; the scan falls back to
 * the automaton without it (ac_scan.c).
 */
#ifndef ACGREP_AC_CONFIRM_H
#define ACGREP_AC_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "window_hash.h"

/* Patterns one bucket may hold: a candidate compares each. */
#define AC_CONFIRM_BUCKET_MAX 8
/* The longest pattern a table may hold.  Comparing a candidate costs up to
 * its bucket's lengths, where stepping shares its steps with the
 * candidates after it: with patterns of 100 KB over text that repeats
 * their start every 16 bytes, comparing is quadratic.  At 64 bytes a
 * candidate costs at most 64 compares of 8 bytes, a few times the steps
 * of the bytes to the next candidate (closer ones are dense: stepping). */
#define AC_CONFIRM_MAX_LEN 64
/* Bytes of pattern text (with padding) the table may hold. */
#define AC_CONFIRM_MAX_BYTES (1u << 20)
/* Padding after each pattern: an 8-byte compare reads past its end. */
#define AC_CONFIRM_PAD 7

struct ac_confirm_entry {
	uint32_t at;  /* offset of the pattern in bytes[] and masks[] */
	uint32_t len; /* its length, at least key_width */
	uint32_t id;  /* its id (the first of duplicates) */
};

struct ac_confirm {
	uint32_t key_width; /* bytes hashed: the shortest pattern's, 4 at most */
	uint32_t key_mask;  /* those bytes within a 32-bit load */
	uint32_t key_fold;  /* 0x20 in those bytes under AC_FOLD_ASCII */
	uint32_t bits;      /* log2(buckets) */
	uint32_t *first;    /* bucket b's entries: first[b] .. first[b + 1] - 1,
			       shortest first */
	struct ac_confirm_entry *entry;
	uint8_t *bytes;     /* patterns (folded), each followed by AC_CONFIRM_PAD
			       bytes 0xff */
	uint8_t *masks;     /* per byte of bytes[]: 0x20 for a folded letter,
			       0xff in the padding, else 0 */
};

struct ac_automaton;

/* Builds ac->confirm for a compiled or loaded HASH automaton whose
 * buckets hold at most AC_CONFIRM_BUCKET_MAX patterns, none longer than
 * AC_CONFIRM_MAX_LEN, all of them in AC_CONFIRM_MAX_BYTES; leaves it NULL
 * otherwise, also when out of
 * memory (the scan then confirms with the automaton: the same matches). */
void ac_confirm_build(struct ac_automaton *ac);

/* Frees ac->confirm (NULL is fine). */
void ac_confirm_free(struct ac_automaton *ac);

/* The bucket of a position whose first 4 bytes (fewer near the end,
 * zero-filled: key_mask drops them) load as `load`: the window hash
 * (window_hash.h) of its key_width bytes, folded as the patterns were. */
static inline uint32_t confirm_key(const struct ac_confirm *cf, uint32_t load)
{
	return ac_mask_hash(load, cf->key_mask, cf->key_fold, cf->bits);
}

/* Whether the 8 bytes at t equal those at p where each t byte is OR-ed
 * with its m byte (0x20 folds a letter; 0xff matches the padding). */
static inline bool confirm_eq8(const uint8_t *t, const uint8_t *p, const uint8_t *m)
{
	uint64_t a, b, k;
	memcpy(&a, t, 8);
	memcpy(&b, p, 8);
	memcpy(&k, m, 8);
	return (a | k) == b;
}

/* Whether the pattern at p (masks m, n bytes) occurs at t, which has
 * avail >= n bytes. */
static inline bool confirm_equal(const uint8_t *t, size_t avail, const uint8_t *p,
				 const uint8_t *m, size_t n)
{
	size_t i = 0;
	for (; n - i > 8; i += 8)
		if (!confirm_eq8(t + i, p + i, m + i))
			return false;
	if (avail - i >= 8) /* the padding past n matches any byte */
		return confirm_eq8(t + i, p + i, m + i);
	if (n >= 8) /* the last 8 bytes, overlapping those compared */
		return confirm_eq8(t + n - 8, p + n - 8, m + n - 8);
	for (; i < n; i++)
		if ((t[i] | m[i]) != p[i])
			return false;
	return true;
}

/* The shortest (longest: true, the longest) pattern occurring at buf[c],
 * of buf[0..len): its entry, or NULL. */
static inline const struct ac_confirm_entry *confirm_at(const struct ac_confirm *cf,
							 const uint8_t *buf, size_t len,
							 size_t c, bool longest)
{
	size_t avail = len - c;
	uint32_t load = 0;
	if (avail >= 4)
		memcpy(&load, buf + c, 4);
	else if (avail >= cf->key_width)
		for (size_t i = 0; i < avail; i++)
			((uint8_t *)&load)[i] = buf[c + i];
	else
		return NULL;
	uint32_t b = confirm_key(cf, load);
	uint32_t lo = cf->first[b], hi = cf->first[b + 1];
	for (uint32_t k = lo; k < hi; k++) {
		const struct ac_confirm_entry *e = &cf->entry[longest ? hi - 1 - (k - lo) : k];
		if (e->len <= avail &&
		    confirm_equal(buf + c, avail, cf->bytes + e->at, cf->masks + e->at, e->len))
			return e;
	}
	return NULL;
}

#endif
