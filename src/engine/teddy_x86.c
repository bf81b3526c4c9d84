/* SPDX-License-Identifier: MIT */
/* teddy_x86.c - the Teddy vector kernels: SSSE3 (16 bytes per shuffle),
 * AVX2 (32) and AVX-512BW (64), each built with a target attribute so one
 * binary carries all three; teddy.c calls only those simd_cpu_level()
 * allows.  Each computes, for a 64-byte block of starts, the bucket bits
 * left after ANDing the nibble-table lookups of every fingerprint byte, and
 * turns the non-zero bytes into a 64-bit candidate bitmap; simd.h's block
 * loop runs it over the text.  A set with one fingerprint (t->exact)
 * compares bytes instead, with the same candidates.  The AVX-512 kernel
 * also gives candidates their second look where t->window asks for it
 * (teddy.h).
 */
#include "teddy.h"

#include "ac_internal.h" /* ac_window_bit */

#if SIMD_X86
#include <immintrin.h>
#include <string.h>

/* The fingerprint-byte loops run at most TEDDY_MAX_WIDTH times with a
 * constant bound: fully unrolled, their tables stay in registers. */
#define PRAGMA_UNROLL3 _Pragma("GCC unroll 3")

/* The block functions of one kernel for each fingerprint width, from a
 * body taking the width as a constant; and the block loop over the one for
 * t->width.  The kernel the block functions are given is struct teddy
 * itself: inlined into the block loop, the loads of its tables (or of the
 * exact form's bytes) are loop-invariant and hoisted into registers once a
 * call, with no copy to set up (a call most often reads one or two blocks
 * before it returns a candidate). */
#define BLOCKS_BY_WIDTH(target, name, body) \
	SIMD_INLINE target uint64_t name##_1(const void *k, const uint8_t *b) { return body(k, b, 1); } \
	SIMD_INLINE target uint64_t name##_2(const void *k, const uint8_t *b) { return body(k, b, 2); } \
	SIMD_INLINE target uint64_t name##_3(const void *k, const uint8_t *b) { return body(k, b, 3); }
#define LOOP_BY_WIDTH(name, t, buf, len, pos, span, mask) \
	((t)->width == 1   ? simd_block_loop(name##_1, t, buf, len, pos, span, mask) \
	 : (t)->width == 2 ? simd_block_loop(name##_2, t, buf, len, pos, span, mask) \
			   : simd_block_loop(name##_3, t, buf, len, pos, span, mask))

/* Bytes a whole block needs readable from its start. */
static size_t block_span(const struct teddy *t)
{
	return 64 + t->offset + t->width - 1;
}

/* Buckets left for the 16 starts whose fingerprints begin at p. */
SIMD_INLINE TARGET_SSSE3 __m128i buckets16(const struct teddy *t, const uint8_t *p, uint32_t width)
{
	const __m128i nib = _mm_set1_epi8(0x0f);
	__m128i acc = _mm_set1_epi8(-1);
	PRAGMA_UNROLL3
	for (uint32_t j = 0; j < width; j++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + j));
		__m128i lo = _mm_loadu_si128((const __m128i *)(const void *)t->lo[j]);
		__m128i hi = _mm_loadu_si128((const __m128i *)(const void *)t->hi[j]);
		__m128i l = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
		__m128i h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), nib));
		acc = _mm_and_si128(acc, _mm_and_si128(l, h));
	}
	return acc;
}

/* The exact form: 0xff for each of the 16 starts whose fingerprint bytes
 * at p are the one fingerprint's, else 0. */
SIMD_INLINE TARGET_SSSE3 __m128i equal16(const struct teddy *t, const uint8_t *p, uint32_t width)
{
	__m128i acc = _mm_set1_epi8(-1);
	PRAGMA_UNROLL3
	for (uint32_t j = 0; j < width; j++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + j));
		__m128i fold = _mm_set1_epi8((char)t->exact.fold[j]), byte = _mm_set1_epi8((char)t->exact.byte[j]);
		acc = _mm_and_si128(acc, _mm_cmpeq_epi8(_mm_or_si128(v, fold), byte));
	}
	return acc;
}

SIMD_INLINE TARGET_SSSE3 uint64_t block16(const void *kernel, const uint8_t *block, uint32_t width)
{
	const struct teddy *t = kernel;
	const uint8_t *p = block + t->offset;
	uint64_t m = 0;
	for (int q = 0; q < 4; q++) {
		__m128i b = buckets16(t, p + 16 * q, width);
		unsigned none = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_setzero_si128()));
		m |= (uint64_t)(~none & 0xffffu) << (16 * q);
	}
	return m;
}

SIMD_INLINE TARGET_SSSE3 uint64_t block16_exact(const void *kernel, const uint8_t *block, uint32_t width)
{
	const struct teddy *t = kernel;
	const uint8_t *p = block + t->offset;
	uint64_t m = 0;
	for (int q = 0; q < 4; q++)
		m |= (uint64_t)(unsigned)_mm_movemask_epi8(equal16(t, p + 16 * q, width)) << (16 * q);
	return m;
}

BLOCKS_BY_WIDTH(TARGET_SSSE3, block16w, block16)
BLOCKS_BY_WIDTH(TARGET_SSSE3, block16e, block16_exact)

TARGET_SSSE3 size_t teddy_scan_ssse3(const struct teddy *t, const uint8_t *buf, size_t len,
				     size_t pos, uint64_t *mask)
{
	if (t->exact.on)
		return LOOP_BY_WIDTH(block16e, t, buf, len, pos, block_span(t), mask);
	return LOOP_BY_WIDTH(block16w, t, buf, len, pos, block_span(t), mask);
}

/* Buckets left for the 32 starts whose fingerprints begin at p. */
SIMD_INLINE TARGET_AVX2 __m256i buckets32(const struct teddy *t, const uint8_t *p, uint32_t width)
{
	const __m256i nib = _mm256_set1_epi8(0x0f);
	__m256i acc = _mm256_set1_epi8(-1);
	PRAGMA_UNROLL3
	for (uint32_t j = 0; j < width; j++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + j));
		__m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t->lo[j]));
		__m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t->hi[j]));
		__m256i l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
		__m256i h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
		acc = _mm256_and_si256(acc, _mm256_and_si256(l, h));
	}
	return acc;
}

/* The exact form of buckets32, as equal16. */
SIMD_INLINE TARGET_AVX2 __m256i equal32(const struct teddy *t, const uint8_t *p, uint32_t width)
{
	__m256i acc = _mm256_set1_epi8(-1);
	PRAGMA_UNROLL3
	for (uint32_t j = 0; j < width; j++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + j));
		__m256i fold = _mm256_set1_epi8((char)t->exact.fold[j]), byte = _mm256_set1_epi8((char)t->exact.byte[j]);
		acc = _mm256_and_si256(acc, _mm256_cmpeq_epi8(_mm256_or_si256(v, fold), byte));
	}
	return acc;
}

SIMD_INLINE TARGET_AVX2 uint64_t block32(const void *kernel, const uint8_t *block, uint32_t width)
{
	const struct teddy *t = kernel;
	const uint8_t *p = block + t->offset;
	const __m256i zero = _mm256_setzero_si256();
	__m256i b0 = buckets32(t, p, width), b1 = buckets32(t, p + 32, width);
	uint64_t none = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b0, zero)) |
			(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b1, zero)) << 32;
	return ~none;
}

SIMD_INLINE TARGET_AVX2 uint64_t block32_exact(const void *kernel, const uint8_t *block, uint32_t width)
{
	const struct teddy *t = kernel;
	const uint8_t *p = block + t->offset;
	return (uint32_t)_mm256_movemask_epi8(equal32(t, p, width)) |
	       (uint64_t)(uint32_t)_mm256_movemask_epi8(equal32(t, p + 32, width)) << 32;
}

BLOCKS_BY_WIDTH(TARGET_AVX2, block32w, block32)
BLOCKS_BY_WIDTH(TARGET_AVX2, block32e, block32_exact)

TARGET_AVX2 size_t teddy_scan_avx2(const struct teddy *t, const uint8_t *buf, size_t len,
				   size_t pos, uint64_t *mask)
{
	if (t->exact.on)
		return LOOP_BY_WIDTH(block32e, t, buf, len, pos, block_span(t), mask);
	return LOOP_BY_WIDTH(block32w, t, buf, len, pos, block_span(t), mask);
}

SIMD_INLINE TARGET_AVX512 uint64_t block64(const void *kernel, const uint8_t *block, uint32_t width)
{
	const struct teddy *t = kernel;
	const uint8_t *p = block + t->offset;
	const __m512i nib = _mm512_set1_epi8(0x0f);
	__m512i acc = _mm512_set1_epi8(-1);
	PRAGMA_UNROLL3
	for (uint32_t j = 0; j < width; j++) {
		__m512i v = _mm512_loadu_si512((const void *)(p + j));
		__m512i lo = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t->lo[j]));
		__m512i hi = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t->hi[j]));
		__m512i l = _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nib));
		__m512i h = _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
		acc = _mm512_ternarylogic_epi32(acc, l, h, 0x80); /* acc & l & h */
	}
	return _mm512_test_epi8_mask(acc, acc);
}

SIMD_INLINE TARGET_AVX512 uint64_t block64_exact(const void *kernel, const uint8_t *block, uint32_t width)
{
	const struct teddy *t = kernel;
	const uint8_t *p = block + t->offset;
	uint64_t m = ~UINT64_C(0);
	PRAGMA_UNROLL3
	for (uint32_t j = 0; j < width; j++) {
		__m512i v = _mm512_loadu_si512((const void *)(p + j));
		__m512i fold = _mm512_set1_epi8((char)t->exact.fold[j]), byte = _mm512_set1_epi8((char)t->exact.byte[j]);
		m &= _mm512_cmpeq_epi8_mask(_mm512_or_si512(v, fold), byte);
	}
	return m;
}

/* The second look at the start block + i (simd_look_fn). */
SIMD_INLINE uint64_t window_look(const void *kernel, const void *block, unsigned i)
{
	const struct teddy_window *w = &((const struct teddy *)kernel)->window;
	uint32_t load;
	memcpy(&load, (const uint8_t *)block + i, 4);
	return ac_window_bit(w->bits, load, w->mask, w->fold);
}

/* The candidates m of a block that pass the second look. */
SIMD_INLINE TARGET_AVX512 uint64_t looked(const void *kernel, const uint8_t *block, uint64_t m)
{
	if (!m) /* most blocks: Teddy's buckets are tighter than the sieve's */
		return 0;
	return simd_look_each(window_look, kernel, block, m);
}

SIMD_INLINE TARGET_AVX512 uint64_t block64_looked(const void *kernel, const uint8_t *block, uint32_t width)
{
	return looked(kernel, block, block64(kernel, block, width));
}

SIMD_INLINE TARGET_AVX512 uint64_t block64_exact_looked(const void *kernel, const uint8_t *block, uint32_t width)
{
	return looked(kernel, block, block64_exact(kernel, block, width));
}

BLOCKS_BY_WIDTH(TARGET_AVX512, block64w, block64)
BLOCKS_BY_WIDTH(TARGET_AVX512, block64e, block64_exact)
BLOCKS_BY_WIDTH(TARGET_AVX512, block64wl, block64_looked)
BLOCKS_BY_WIDTH(TARGET_AVX512, block64el, block64_exact_looked)

TARGET_AVX512 size_t teddy_scan_avx512(const struct teddy *t, const uint8_t *buf, size_t len,
				       size_t pos, uint64_t *mask)
{
	size_t span = block_span(t);
	if (t->window.bits) { /* every start's 4-byte window readable too */
		span = span > TEDDY_LOOK_SPAN ? span : TEDDY_LOOK_SPAN;
		if (t->exact.on)
			return LOOP_BY_WIDTH(block64el, t, buf, len, pos, span, mask);
		return LOOP_BY_WIDTH(block64wl, t, buf, len, pos, span, mask);
	}
	if (t->exact.on)
		return LOOP_BY_WIDTH(block64e, t, buf, len, pos, span, mask);
	return LOOP_BY_WIDTH(block64w, t, buf, len, pos, span, mask);
}
#else
typedef int teddy_x86_not_built; /* ISO C wants something in every file */
#endif
