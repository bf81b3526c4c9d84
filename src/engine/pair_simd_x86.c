/* SPDX-License-Identifier: MIT */
/* pair_simd_x86.c - gather kernels of the pair prefilter (see pair_simd.h).
 *
 * Per group of lanes: zero-extend the bytes at p and p + 1 to 32-bit lanes,
 * form the 16-bit pair index, gather the 32-bit table word holding its bit
 * (the 64-bit words of pair[] are little-endian, so bit i of the table is
 * bit i % 32 of 32-bit word i / 32), shift the bit down and test it.
 * Each kernel is one 64-byte block's bitmap run by simd.h's block loop.
 * A sparse window table (at most a few hundred bits) is first tested
 * against two 1,024-bit summaries held in four AVX-512 registers
 * (vpermt2d, no memory access); the few windows that pass both have
 * their table bit read with scalar loads.
 */
#include "pair_simd.h"

#include "ac_internal.h"
#include "bits.h"

#include <string.h>

#if SIMD_X86
#include <immintrin.h>

/* The gathers' state: the table as 32-bit words, and for windows, the
 * window's mask and fold bits (ac_window_hash). */
struct gather {
	const int *words;
	uint32_t wmask, fold;
	const uint32_t *folds; /* window_folds' two 1,024-bit summaries */
};

/* Candidates among the 8 positions at p. */
SIMD_INLINE TARGET_AVX2 uint32_t pairs8(const int *table, const uint8_t *p)
{
	__m256i b0 = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
	__m256i b1 = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p + 1)));
	__m256i idx = _mm256_or_si256(_mm256_slli_epi32(b0, 8), b1);
	__m256i word = _mm256_i32gather_epi32(table, _mm256_srli_epi32(idx, 5), 4);
	__m256i bit = _mm256_srlv_epi32(word, _mm256_and_si256(idx, _mm256_set1_epi32(31)));
	bit = _mm256_slli_epi32(bit, 31); /* the bit into the sign for movemask */
	return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bit));
}

SIMD_INLINE TARGET_AVX2 uint64_t pair_block_avx2(const void *kernel, const uint8_t *p)
{
	const struct gather *k = kernel;
	uint64_t m = 0;
	for (int g = 0; g < 8; g++)
		m |= (uint64_t)pairs8(k->words, p + 8 * g) << (8 * g);
	return m;
}

TARGET_AVX2 size_t pair_scan_avx2(const uint64_t pair[1024], const uint8_t *buf, size_t len,
				  size_t pos, uint64_t *mask)
{
	struct gather k = { .words = (const int *)(const void *)pair };
	return simd_block_loop(pair_block_avx2, &k, buf, len, pos, 65, mask);
}

SIMD_INLINE TARGET_AVX512 uint64_t pair_block_avx512(const void *kernel, const uint8_t *block)
{
	const struct gather *k = kernel;
	const __m512i low5 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1);
	uint64_t m = 0;
	for (int g = 0; g < 4; g++) {
		const uint8_t *p = block + 16 * g;
		__m512i b0 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
		__m512i b1 = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p + 1)));
		__m512i idx = _mm512_or_si512(_mm512_slli_epi32(b0, 8), b1);
		__m512i word = _mm512_i32gather_epi32(_mm512_srli_epi32(idx, 5), k->words, 4);
		__m512i bit = _mm512_srlv_epi32(word, _mm512_and_si512(idx, low5));
		m |= (uint64_t)_mm512_test_epi32_mask(bit, one) << (16 * g);
	}
	return m;
}

TARGET_AVX512 size_t pair_scan_avx512(const uint64_t pair[1024], const uint8_t *buf, size_t len,
				      size_t pos, uint64_t *mask)
{
	struct gather k = { .words = (const int *)(const void *)pair };
	return simd_block_loop(pair_block_avx512, &k, buf, len, pos, 65, mask);
}

/* The table bits of 8 windows (32-bit lanes): each masked, folded and
 * hashed (ac_window_hash), its table word gathered, and its bit shifted
 * into the lane's sign. */
SIMD_INLINE TARGET_AVX2 __m256i window_bits8(const struct gather *k, __m256i w)
{
	const __m256i vmask = _mm256_set1_epi32((int)k->wmask), vfold = _mm256_set1_epi32((int)k->fold);
	w = _mm256_or_si256(_mm256_and_si256(w, vmask), vfold);
	__m256i idx = _mm256_srli_epi32(_mm256_mullo_epi32(w, _mm256_set1_epi32((int)AC_WINDOW_MUL)),
					32 - AC_WINDOW_BITS);
	__m256i word = _mm256_i32gather_epi32(k->words, _mm256_srli_epi32(idx, 5), 4);
	return _mm256_sllv_epi32(word, _mm256_andnot_si256(idx, _mm256_set1_epi32(31)));
}

/* The 32-bit windows starting at the 8 positions at p (p[0..16) readable):
 * one 16-byte load in both lanes, each lane's four windows picked out with
 * a byte shuffle. */
SIMD_INLINE TARGET_AVX2 __m256i windows8(const uint8_t *p)
{
	const __m256i pick = _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6,
					      4, 5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10);
	__m256i bytes = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p));
	return _mm256_shuffle_epi8(bytes, pick);
}

SIMD_INLINE TARGET_AVX2 uint64_t window_block_avx2(const void *kernel, const uint8_t *p)
{
	uint64_t m = 0;
#pragma GCC unroll 8
	for (int g = 0; g < 8; g++) {
		__m256i bit = window_bits8(kernel, windows8(p + 8 * g));
		m |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bit)) << (8 * g);
	}
	return m;
}

TARGET_AVX2 size_t window_scan_avx2(const uint64_t *table, uint32_t wmask, uint32_t fold,
				    const uint8_t *buf, size_t len, size_t pos, uint64_t *mask)
{
	struct gather k = { .words = (const int *)(const void *)table, .wmask = wmask, .fold = fold };
	return simd_block_loop(window_block_avx2, &k, buf, len, pos, 72, mask);
}

/* The 8 windows (32-bit lanes) of a strided scan that are in the table:
 * all ones in the lanes whose hashed bit is set, else zero. */
SIMD_INLINE TARGET_AVX2 __m256i window_hits8(const struct gather *k, __m256i w)
{
	return _mm256_srai_epi32(window_bits8(k, w), 31);
}

/* ac_blocks.c's hash_groups for stride 8: the windows at block + 8g + 7,
 * picked from two loads (even lanes of one, odd of the other), each hit
 * widened to a 64-bit lane, whose movemask byte holds bit 8g. */
SIMD_INLINE TARGET_AVX2 uint64_t groups8_avx2(const void *kernel, const uint8_t *p)
{
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + 7));  /* 7, 11, .. 35 */
	__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 35)); /* 35, 39, .. 63 */
	__m256i w = _mm256_castps_si256(
		_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(3, 1, 2, 0)));
	w = _mm256_permute4x64_epi64(w, _MM_SHUFFLE(3, 1, 2, 0)); /* 7, 15, .. 63 in order */
	__m256i hits = window_hits8(kernel, w);
	__m256i lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(hits));
	__m256i hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(hits, 1));
	uint64_t m = (uint32_t)_mm256_movemask_epi8(lo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
	return m & UINT64_C(0x0101010101010101);
}

/* Stride 4: the windows at block + 4g + 3 are the 32-bit lanes of two
 * loads; each hit's movemask nibble holds bit 4g. */
SIMD_INLINE TARGET_AVX2 uint64_t groups4_avx2(const void *kernel, const uint8_t *p)
{
	__m256i h0 = window_hits8(kernel, _mm256_loadu_si256((const __m256i *)(const void *)(p + 3)));
	__m256i h1 = window_hits8(kernel, _mm256_loadu_si256((const __m256i *)(const void *)(p + 35)));
	uint64_t m = (uint32_t)_mm256_movemask_epi8(h0) | (uint64_t)(uint32_t)_mm256_movemask_epi8(h1) << 32;
	return m & UINT64_C(0x1111111111111111);
}

/* Stride 2: the windows at block + 2g + 1, 8 at a time from 16 bytes at
 * q and 16 at q + 2 shuffled into lanes; hits narrowed to 16 bits, whose
 * movemask pair holds bit 2g. */
SIMD_INLINE TARGET_AVX2 __m256i groups2_hits(const void *kernel, const uint8_t *q)
{
	const __m256i pick = _mm256_setr_epi8(0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9,
					      6, 7, 8, 9, 8, 9, 10, 11, 10, 11, 12, 13, 12, 13, 14, 15);
	__m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)q)),
					    _mm_loadu_si128((const __m128i *)(const void *)(q + 2)), 1);
	return window_hits8(kernel, _mm256_shuffle_epi8(v, pick));
}

SIMD_INLINE TARGET_AVX2 uint64_t groups2_avx2(const void *kernel, const uint8_t *p)
{
	__m256i h01 = _mm256_packs_epi32(groups2_hits(kernel, p + 1), groups2_hits(kernel, p + 17));
	__m256i h23 = _mm256_packs_epi32(groups2_hits(kernel, p + 33), groups2_hits(kernel, p + 49));
	h01 = _mm256_permute4x64_epi64(h01, _MM_SHUFFLE(3, 1, 2, 0));
	h23 = _mm256_permute4x64_epi64(h23, _MM_SHUFFLE(3, 1, 2, 0));
	uint64_t m = (uint32_t)_mm256_movemask_epi8(h01) | (uint64_t)(uint32_t)_mm256_movemask_epi8(h23) << 32;
	return m & UINT64_C(0x5555555555555555);
}

TARGET_AVX2 size_t window_groups_avx2(const uint64_t *table, uint32_t wmask, uint32_t fold, uint32_t stride,
				      const uint8_t *buf, size_t len, size_t pos, uint64_t *mask)
{
	struct gather k = { .words = (const int *)(const void *)table, .wmask = wmask, .fold = fold };
	switch (stride) {
	case 8: return simd_block_loop(groups8_avx2, &k, buf, len, pos, 67, mask);
	case 4: return simd_block_loop(groups4_avx2, &k, buf, len, pos, 67, mask);
	default: return simd_block_loop(groups2_avx2, &k, buf, len, pos, 67, mask);
	}
}

/* The table indexes (ac_window_hash) of the 16 windows starting at p
 * .. p + 15, from one 16-byte load at p and one at p + 8 shuffled into
 * the lanes' 4-byte windows. */
SIMD_INLINE TARGET_AVX512 __m512i window_index16(const struct gather *k, const uint8_t *p)
{
	const __m512i vmask = _mm512_set1_epi32((int)k->wmask), vfold = _mm512_set1_epi32((int)k->fold);
	const __m512i mul = _mm512_set1_epi32((int)AC_WINDOW_MUL);
	/* lanes 0 and 2 pick the windows at 0..3 of their 16 bytes, 1 and 3 those at 4..7 */
	const __m512i pick = _mm512_add_epi8(
		_mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6)),
		_mm512_setr_epi32(0, 0, 0, 0, 0x04040404, 0x04040404, 0x04040404, 0x04040404,
				  0, 0, 0, 0, 0x04040404, 0x04040404, 0x04040404, 0x04040404));
	__m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p));
	__m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p + 8)));
	__m512i w = _mm512_shuffle_epi8(_mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1), pick);
	w = _mm512_or_si512(_mm512_and_si512(w, vmask), vfold);
	return _mm512_srli_epi32(_mm512_mullo_epi32(w, mul), 32 - AC_WINDOW_BITS);
}

SIMD_INLINE TARGET_AVX512 uint64_t window_block_avx512(const void *kernel, const uint8_t *block)
{
	const struct gather *k = kernel;
	const __m512i low5 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1);
	uint64_t m = 0;
#pragma GCC unroll 4
	for (int g = 0; g < 4; g++) {
		__m512i idx = window_index16(k, block + 16 * g);
		__m512i word = _mm512_i32gather_epi32(_mm512_srli_epi32(idx, 5), k->words, 4);
		__m512i bit = _mm512_srlv_epi32(word, _mm512_and_si512(idx, low5));
		m |= (uint64_t)_mm512_test_epi32_mask(bit, one) << (16 * g);
	}
	return m;
}

TARGET_AVX512 size_t window_scan_avx512(const uint64_t *table, uint32_t wmask, uint32_t fold,
					const uint8_t *buf, size_t len, size_t pos, uint64_t *mask)
{
	struct gather k = { .words = (const int *)(const void *)table, .wmask = wmask, .fold = fold };
	return simd_block_loop(window_block_avx512, &k, buf, len, pos, 72, mask);
}
void window_folds(const uint64_t *table, uint32_t folds[64])
{
	memset(folds, 0, 64 * sizeof *folds);
	for (unsigned line = 0; line < 1u << (AC_WINDOW_BITS - 6); line += 8) {
		if (window_line_empty(table + line))
			continue;
		for (unsigned w = line; w < line + 8; w++) {
			for (uint64_t bits = table[w]; bits; bits &= bits - 1) {
				unsigned h = w * 64 + ctz64(bits);
				unsigned hi = h >> (AC_WINDOW_BITS - 10), lo = h & 1023;
				folds[hi >> 5] |= 1u << (hi & 31);
				folds[32 + (lo >> 5)] |= 1u << (lo & 31);
			}
		}
	}
}

/* The table bit of window i, whose index is h[i] (simd_look_fn). */
SIMD_INLINE uint64_t table_bit_at(const void *kernel, const void *h, unsigned i)
{
	const struct gather *k = kernel;
	uint32_t at = ((const uint32_t *)h)[i];
	return ((uint32_t)k->words[at >> 5] >> (at & 31)) & 1;
}

/* Candidates among a block's 64 windows by the two summaries (no
 * gather), then the exact table bits of the windows that pass both, read
 * one by one: a few a block at most, so one branch per block and scalar
 * loads cost less than a 16-lane gather. */
SIMD_INLINE TARGET_AVX512 uint64_t window_block_sparse(const void *kernel, const uint8_t *block)
{
	const struct gather *k = kernel;
	const __m512i one = _mm512_set1_epi32(1);
	const __m512i hi0 = _mm512_loadu_si512(k->folds), hi1 = _mm512_loadu_si512(k->folds + 16);
	const __m512i lo0 = _mm512_loadu_si512(k->folds + 32), lo1 = _mm512_loadu_si512(k->folds + 48);
	__m512i idx[4];
	uint64_t pass = 0;
#pragma GCC unroll 4
	for (int g = 0; g < 4; g++) {
		idx[g] = window_index16(k, block + 16 * g);
		__m512i top = _mm512_srli_epi32(idx[g], AC_WINDOW_BITS - 10);
		__m512i a = _mm512_permutex2var_epi32(hi0, _mm512_srli_epi32(top, 5), hi1);
		__m512i b = _mm512_permutex2var_epi32(lo0, _mm512_srli_epi32(idx[g], 5), lo1);
		/* rotates take their count mod 32: 1 << (top % 32), 1 << (idx % 32) */
		__mmask16 both = _mm512_test_epi32_mask(a, _mm512_rolv_epi32(one, top));
		both = _mm512_mask_test_epi32_mask(both, b, _mm512_rolv_epi32(one, idx[g]));
		pass |= (uint64_t)both << (16 * g);
	}
	uint32_t h[64];
	for (int g = 0; g < 4; g++)
		_mm512_storeu_si512(h + 16 * g, idx[g]);
	return simd_look_each(table_bit_at, k, h, pass);
}

TARGET_AVX512 size_t window_scan_avx512_sparse(const uint64_t *table, const uint32_t folds[64],
					       uint32_t wmask, uint32_t fold, const uint8_t *buf,
					       size_t len, size_t pos, uint64_t *mask)
{
	struct gather k = { .words = (const int *)(const void *)table, .wmask = wmask, .fold = fold,
			    .folds = folds };
	return simd_block_loop(window_block_sparse, &k, buf, len, pos, 72, mask);
}

/* The sieve kernel's state: the sieve's 8 tables of 128 bytes, and the
 * HASH table with its window's mask and fold bits. */
struct sieve_kernel {
	const struct window_sieve *sieve;
	const uint64_t *bits;
	uint32_t wmask, fold;
};

/* The table bit of the window at block + i (simd_look_fn). */
SIMD_INLINE uint64_t sieve_lookup(const void *kernel, const void *block, unsigned i)
{
	const struct sieve_kernel *k = kernel;
	uint32_t load;
	memcpy(&load, (const uint8_t *)block + i, 4);
	return ac_window_bit(k->bits, load, k->wmask, k->fold);
}

/* The block's 64 windows through the sieve: per window byte, each text
 * byte's low 7 bits pick its buckets from two 128-byte tables (vpermt2b),
 * ANDed over the window's bytes; then the windows with a bucket left are
 * hashed and looked up in the table one by one. */
SIMD_INLINE TARGET_AVX512VBMI uint64_t sieve_block(const void *kernel, const uint8_t *block)
{
	const struct sieve_kernel *k = kernel;
	__m512i lo = _mm512_set1_epi8(-1), hi = lo;
#pragma GCC unroll 4
	for (int j = 0; j < 4; j++) {
		const uint8_t *t0 = k->sieve->admit[j][0], *t1 = k->sieve->admit[j][1];
		__m512i bytes = _mm512_loadu_si512(block + j);
		lo = _mm512_and_si512(lo, _mm512_permutex2var_epi8(_mm512_loadu_si512(t0), bytes,
								   _mm512_loadu_si512(t0 + 64)));
		hi = _mm512_and_si512(hi, _mm512_permutex2var_epi8(_mm512_loadu_si512(t1), bytes,
								   _mm512_loadu_si512(t1 + 64)));
	}
	__m512i any = _mm512_or_si512(lo, hi);
	return simd_look_each(sieve_lookup, k, block, _mm512_test_epi8_mask(any, any));
}

TARGET_AVX512VBMI size_t window_scan_sieve(const struct window_sieve *sieve, const uint64_t *table,
					   uint32_t wmask, uint32_t fold, const uint8_t *buf, size_t len,
					   size_t pos, uint64_t *mask)
{
	struct sieve_kernel k = { .sieve = sieve, .bits = table, .wmask = wmask, .fold = fold };
	return simd_block_loop(sieve_block, &k, buf, len, pos, 72, mask);
}

/* The RARE prefilter: each byte compared with the three of the set. */
SIMD_INLINE TARGET_SSSE3 uint64_t rare_block_sse2(const void *kernel, const uint8_t *block)
{
	const uint8_t *set = kernel;
	const __m128i b0 = _mm_set1_epi8((char)set[0]), b1 = _mm_set1_epi8((char)set[1]),
		      b2 = _mm_set1_epi8((char)set[2]);
	uint64_t m = 0;
	for (int g = 0; g < 4; g++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(block + 16 * g));
		__m128i eq = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, b0), _mm_cmpeq_epi8(v, b1)),
					  _mm_cmpeq_epi8(v, b2));
		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(eq) << (16 * g);
	}
	return m;
}

TARGET_SSSE3 size_t rare_scan_sse2(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos,
				   uint64_t *mask)
{
	return simd_block_loop(rare_block_sse2, set, buf, len, pos, 64, mask);
}

SIMD_INLINE TARGET_AVX2 uint64_t rare_block_avx2(const void *kernel, const uint8_t *block)
{
	const uint8_t *set = kernel;
	const __m256i b0 = _mm256_set1_epi8((char)set[0]), b1 = _mm256_set1_epi8((char)set[1]),
		      b2 = _mm256_set1_epi8((char)set[2]);
	uint64_t m = 0;
	for (int g = 0; g < 2; g++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(block + 32 * g));
		__m256i eq = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, b0), _mm256_cmpeq_epi8(v, b1)),
					     _mm256_cmpeq_epi8(v, b2));
		m |= (uint64_t)(uint32_t)_mm256_movemask_epi8(eq) << (32 * g);
	}
	return m;
}

TARGET_AVX2 size_t rare_scan_avx2(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos,
				  uint64_t *mask)
{
	return simd_block_loop(rare_block_avx2, set, buf, len, pos, 64, mask);
}

SIMD_INLINE TARGET_AVX512 uint64_t rare_block_avx512(const void *kernel, const uint8_t *block)
{
	const uint8_t *set = kernel;
	__m512i v = _mm512_loadu_si512((const void *)block);
	return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)set[0])) |
	       _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)set[1])) |
	       _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)set[2]));
}

TARGET_AVX512 size_t rare_scan_avx512(const uint8_t set[3], const uint8_t *buf, size_t len, size_t pos,
				      uint64_t *mask)
{
	return simd_block_loop(rare_block_avx512, set, buf, len, pos, 64, mask);
}
#else
typedef int pair_simd_x86_not_built; /* ISO C wants something in every file */
#endif
