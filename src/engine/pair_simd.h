/* SPDX-License-Identifier: MIT */
/* pair_simd.h - the 2-byte pair prefilter's vector kernels.
 *
 * Owns: computing the candidate bitmap of the pair prefilter (bit
 * (b0 << 8 | b1) of a 64 Kibit table, as ac_scan.c's scalar block_mask
 * does), or of the hashed-window prefilter (ac_window_hash), for 8 or 16
 * positions at a time with gathers (AVX2, AVX-512F); and the RARE
 * prefilter's, where each byte is compared with 1-3 rare bytes.
 * For sets too large for Teddy's buckets.  Built with target attributes;
 * call only a kernel simd_cpu_level() allows (AVX2 needs SIMD_AVX2 or
 * more, AVX-512 SIMD_AVX512).
 */
#ifndef ACGREP_PAIR_SIMD_H
#define ACGREP_PAIR_SIMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simd.h"
#include "window_sieve.h"

/* Whether the 8 words (one cache line) of a HASH table at t are all zero,
 * as most lines of a sparse table are: its passes skip them. */
static inline bool window_line_empty(const uint64_t *t)
{
	return !(t[0] | t[1] | t[2] | t[3] | t[4] | t[5] | t[6] | t[7]);
}

#if SIMD_X86
/* From pos, in steps of 64 bytes, over the blocks with 65 bytes readable
 * (buf[0..len)): returns the first block with a candidate (and its *mask,
 * bit i set when pair[] has the pair at block + i), or the first block
 * not handled (with *mask = 0), which the caller finishes in scalar code. */
size_t pair_scan_avx2(const uint64_t pair[1024], const uint8_t *buf, size_t len, size_t pos,
		      uint64_t *mask);
size_t pair_scan_avx512(const uint64_t pair[1024], const uint8_t *buf, size_t len, size_t pos,
			uint64_t *mask);

/* The same for the HASH prefilter (bit ac_window_hash(load, wmask, fold) of
 * the table), over the blocks with 72 bytes readable. */
size_t window_scan_avx2(const uint64_t *table, uint32_t wmask, uint32_t fold, const uint8_t *buf,
			size_t len, size_t pos, uint64_t *mask);
size_t window_scan_avx512(const uint64_t *table, uint32_t wmask, uint32_t fold,
			  const uint8_t *buf, size_t len, size_t pos, uint64_t *mask);

/* A strided HASH scan's group hits (ac_blocks.c's hash_groups: with
 * stride 2, 4 or 8, bit S*g set when the window at block + S*g + S-1 is in
 * the table), over the blocks with 67 bytes readable: the first block with
 * a hit (and its *mask), or the first block not handled (*mask = 0). */
size_t window_groups_avx2(const uint64_t *table, uint32_t wmask, uint32_t fold, uint32_t stride,
			  const uint8_t *buf, size_t len, size_t pos, uint64_t *mask);

/* The RARE prefilter's bitmap (bit i set when the byte at block + i is
 * one of set[0..3)), over the blocks with 64 bytes readable: SSE2 compares
 * (any x86 level but SIMD_SCALAR), AVX2 ones (SIMD_AVX2), AVX-512BW ones
 * into a mask register (SIMD_AVX512). */
size_t rare_scan_sse2(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos,
		      uint64_t *mask);
size_t rare_scan_avx2(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos,
		      uint64_t *mask);
size_t rare_scan_avx512(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos,
			uint64_t *mask);

/* Two 1,024-bit summaries of a HASH table (2^AC_WINDOW_BITS bits) into
 * folds[0..64): bit h >> (AC_WINDOW_BITS - 10) of the first 32 words and
 * bit h & 1023 of the last 32 set for every bit h set in the table. */
void window_folds(const uint64_t *table, uint32_t folds[64]);

/* window_scan_avx512's result for a sparse table, tested first against
 * its window_folds summaries held in registers, reading the table's
 * words one by one for the windows that pass both. */
size_t window_scan_avx512_sparse(const uint64_t *table, const uint32_t folds[64], uint32_t wmask,
				 uint32_t fold, const uint8_t *buf, size_t len, size_t pos,
				 uint64_t *mask);

/* window_scan_avx512_sparse's result among the windows that pass the
 * sieve (window_sieve.h), which alone are hashed and looked up: byte
 * permutes of AVX-512 VBMI (simd_cpu_vbmi()). */
size_t window_scan_sieve(const struct window_sieve *sieve, const uint64_t *table, uint32_t wmask,
			 uint32_t fold, const uint8_t *buf, size_t len, size_t pos, uint64_t *mask);
#endif

#endif
