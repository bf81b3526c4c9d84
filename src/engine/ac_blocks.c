/* SPDX-License-Identifier: MIT */
/* ac_blocks.c - the prefilter's next candidate block for the scan loop
 * (ac_scan.c's next_bit): the 2-byte pair table and the hashed 3-4 byte
 * windows (BITMAP, HASH), and the bytes of a rare set (RARE), each with
 * the vector kernels the CPU has (pair_simd.h) and a scalar loop for the
 * rest.  Teddy's blocks are teddy.c's.  Reads only the compiled tables.
 */
#include "ac_internal.h"
#include "bits.h"
#include "pair_simd.h"

#include <string.h>

/* Candidate bitmap of the block at p, with `avail` bytes readable from p. */
static uint64_t block_mask(const ac_automaton *ac, const uint8_t *p, size_t avail)
{
	uint64_t m = 0;
	size_t n = avail > 64 ? 64 : avail - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned idx = (unsigned)p[i] << 8 | p[i + 1];
		m |= ((ac->pair[idx >> 6] >> (idx & 63)) & 1) << i;
	}
	if (avail <= 64)
		m |= (uint64_t)ac->first_byte[p[avail - 1]] << (avail - 1);
	return m;
}

/* Whether the window whose 4-byte load is `load` is in the HASH table. */
static inline uint64_t window_in_table(const ac_automaton *ac, uint32_t load)
{
	return ac_window_bit(ac->window_bits, load, ac->window_mask, ac->window_fold);
}

/* The same for the HASH prefilter: a position is a candidate when the hash
 * of its window is in the table; a window past the end cannot start a match
 * (every pattern is at least as long), the bytes past the end of a 3-byte
 * window are masked off.  With a stride S > 1 and a whole block (67 bytes
 * readable), only the windows at block + S*g + S-1 are looked up: the table
 * holds every pattern's windows at offsets 0 .. S-1 and each pattern is at
 * least S + width - 1 bytes long, so a match starting at block + S*g + j
 * (j < S) has its window at offset S-1-j there.  A hit's S positions are
 * then looked up one by one, each a candidate when its own window is in the
 * table (a match's window at offset 0 is): an adjacent run of S candidates
 * would cost S confirmations (and count towards the dense-text switch),
 * where a few more lookups a hit cost less.  Otherwise every position is
 * looked up. */
static inline uint64_t hash_groups(const ac_automaton *ac, const uint8_t *p, uint32_t stride)
{
	uint64_t hits = 0;
	for (uint32_t g = 0; g < 64; g += stride) {
		uint32_t load;
		memcpy(&load, p + g + stride - 1, 4);
		hits |= window_in_table(ac, load) << g;
	}
	return hits;
}

/* Of the groups `hits` of a whole block, the positions whose own window is
 * in the table. */
static uint64_t hash_group_windows(const ac_automaton *ac, const uint8_t *p, uint64_t hits)
{
	uint64_t m = 0;
	for (; hits; hits = clear_lowest(hits))
		for (uint32_t i = (uint32_t)ctz64(hits), end = i + ac->window_stride; i < end; i++) {
			uint32_t load;
			memcpy(&load, p + i, 4);
			m |= window_in_table(ac, load) << i;
		}
	return m;
}

static uint64_t block_mask_hash(const ac_automaton *ac, const uint8_t *p, size_t avail)
{
	uint64_t m = 0;
	if (avail >= 67 && ac->window_stride > 1) {
		switch (ac->window_stride) {
		case 8: m = hash_groups(ac, p, 8); break;
		case 4: m = hash_groups(ac, p, 4); break;
		default: m = hash_groups(ac, p, 2); break;
		}
		return m ? hash_group_windows(ac, p, m) : 0;
	}
	/* one fixed-size load a position (a memcpy call of the bytes left cost
	 * three lookups); near the end, from a copy padded with zeros, which a
	 * 3-byte window's mask drops */
	uint8_t padded[64 + 3];
	if (avail < sizeof padded) {
		memset(padded, 0, sizeof padded);
		memcpy(padded, p, avail);
		p = padded;
	}
	for (size_t i = 0; i < 64 && i + ac->window_width <= avail; i++) {
		uint32_t load;
		memcpy(&load, p + i, 4);
		m |= window_in_table(ac, load) << i;
	}
	return m;
}

#if SIMD_X86
/* Of the candidates `cands` of a whole block at p, the positions whose
 * window is in the table. */
static uint64_t table_windows(const ac_automaton *ac, const uint8_t *p, uint64_t cands)
{
	uint64_t m = 0;
	for (; cands; cands = clear_lowest(cands)) {
		uint32_t i = (uint32_t)ctz64(cands), load;
		memcpy(&load, p + i, 4);
		m |= window_in_table(ac, load) << i;
	}
	return m;
}

/* A HASH scan through the shift-or filter: from pos, the first block with
 * a window that passes it and is in the table, with *mask, or the first
 * block the kernel does not handle (*mask = 0). */
static size_t window_shift_next(const ac_automaton *ac, const struct window_shift *shift,
				const uint8_t *buf, size_t len, size_t pos, uint64_t *mask)
{
	uint64_t passed = 0;
	for (;; pos += 64) {
		pos = window_shift_scan(shift, buf, len, pos, &passed);
		if (!passed || (*mask = table_windows(ac, buf + pos, passed)) != 0)
			break;
	}
	if (!passed)
		*mask = 0;
	return pos;
}

/* A strided HASH scan with the AVX2 group kernel: from pos, the first
 * block whose group hits keep a position (hash_group_windows), with *mask,
 * or the first block the kernel does not handle (*mask = 0). */
static size_t window_groups_next(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
				 uint64_t *mask)
{
	uint64_t hits = 0;
	for (;; pos += 64) {
		pos = window_groups_avx2(ac->window_bits, ac->window_mask, ac->window_fold, ac->window_stride,
					 buf, len, pos, &hits);
		if (!hits || (*mask = hash_group_windows(ac, buf + pos, hits)) != 0)
			break;
	}
	if (!hits)
		*mask = 0;
	return pos;
}
#endif

size_t ac_pair_next_block(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
			  uint64_t *mask)
{
	uint64_t m = 0;
	bool hash = ac->path == AC_PATH_HASH;
#if SIMD_X86
	const struct window_shift *shift;
	if (hash && ac->window_stride > 1 && (ac->simd == SIMD_AVX2 || ac->simd == SIMD_AVX512))
		pos = window_groups_next(ac, buf, len, pos, &m);
	else if (hash && ac->window_stride > 1)
		; /* a few lookups a block: the scalar loop below */
	else if (hash && ac->shift_cell && (shift = ac_window_shift(ac)) != NULL)
		pos = window_shift_next(ac, shift, buf, len, pos, &m);
	else if (hash && ac->window_sieved)
		pos = window_scan_sieve(&ac->window_sieve, ac->window_bits, ac->window_mask, ac->window_fold,
					buf, len, pos, &m);
	else if (hash && ac->window_sparse && ac->simd == SIMD_AVX512)
		pos = window_scan_avx512_sparse(ac->window_bits, ac->window_folds, ac->window_mask,
						ac->window_fold, buf, len, pos, &m);
	else if (ac->simd == SIMD_AVX512)
		pos = hash ? window_scan_avx512(ac->window_bits, ac->window_mask, ac->window_fold, buf, len, pos, &m)
			   : pair_scan_avx512(ac->pair, buf, len, pos, &m);
	else if (ac->simd == SIMD_AVX2)
		pos = hash ? window_scan_avx2(ac->window_bits, ac->window_mask, ac->window_fold, buf, len, pos, &m)
			   : pair_scan_avx2(ac->pair, buf, len, pos, &m);
#endif
	for (; !m && pos < len; pos += 64) {
		m = hash ? block_mask_hash(ac, buf + pos, len - pos) : block_mask(ac, buf + pos, len - pos);
		if (m)
			break;
	}
	*mask = m;
	return m ? pos : len;
}

/* The RARE prefilter's bitmap of the block at p (avail bytes, at most 64
 * looked at): the bytes of the rare set. */
static uint64_t block_mask_rare(const ac_automaton *ac, const uint8_t *p, size_t avail)
{
	uint64_t m = 0;
	size_t n = avail < 64 ? avail : 64, i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t eq = bytes_equal_bits(p + i, ac->rare_set[0]) |
			      bytes_equal_bits(p + i, ac->rare_set[1]) |
			      bytes_equal_bits(p + i, ac->rare_set[2]);
		for (; eq; eq &= eq - 1) /* byte k of the word is bit 8k */
			m |= UINT64_C(1) << (i + ctz64(eq) / 8);
	}
	for (; i < n; i++)
		if (p[i] == ac->rare_set[0] || p[i] == ac->rare_set[1] || p[i] == ac->rare_set[2])
			m |= UINT64_C(1) << i;
	return m;
}

size_t ac_rare_next_block(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
			  uint64_t *mask)
{
	uint64_t m = 0;
#if SIMD_X86
	if (ac->simd == SIMD_AVX512)
		pos = rare_scan_avx512(ac->rare_set, buf, len, pos, &m);
	else if (ac->simd == SIMD_AVX2)
		pos = rare_scan_avx2(ac->rare_set, buf, len, pos, &m);
	else if (ac->simd != SIMD_SCALAR)
		pos = rare_scan_sse2(ac->rare_set, buf, len, pos, &m);
#endif
	for (; !m && pos < len; pos += 64)
		if ((m = block_mask_rare(ac, buf + pos, len - pos)))
			break;
	*mask = m;
	return m ? pos : len;
}
