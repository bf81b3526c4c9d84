/* teddy_x86.c - the Teddy vector kernels: SSSE3 (16 bytes per shuffle),
 * AVX2 (32) and AVX-512BW (64), each built with a target attribute so one
 * binary carries all three; teddy.c calls only those simd_cpu_level()
 * allows.  Each computes, for a 64-byte block of starts, the bucket bits
 * left after ANDing the nibble-table lookups of every fingerprint byte, and
 * turns the non-zero bytes into a 64-bit candidate bitmap.
 */
#include "teddy.h"

#if SIMD_X86
#include <immintrin.h>

/* Bytes a whole block needs readable from its start. */
static size_t block_span(const struct teddy *t)
{
	return 64 + t->offset + t->width - 1;
}

/* Buckets left for the 16 starts whose fingerprints begin at p. */
static inline TARGET_SSSE3 __m128i buckets16(const __m128i *lo, const __m128i *hi,
					     const uint8_t *p, uint32_t width)
{
	const __m128i nib = _mm_set1_epi8(0x0f);
	__m128i acc = _mm_set1_epi8(-1);
	for (uint32_t j = 0; j < width; j++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + j));
		__m128i l = _mm_shuffle_epi8(lo[j], _mm_and_si128(v, nib));
		__m128i h = _mm_shuffle_epi8(hi[j], _mm_and_si128(_mm_srli_epi16(v, 4), nib));
		acc = _mm_and_si128(acc, _mm_and_si128(l, h));
	}
	return acc;
}

TARGET_SSSE3 size_t teddy_scan_ssse3(const struct teddy *t, const uint8_t *buf, size_t len,
				     size_t pos, uint64_t *mask)
{
	__m128i lo[TEDDY_MAX_WIDTH], hi[TEDDY_MAX_WIDTH];
	for (uint32_t j = 0; j < t->width; j++) {
		lo[j] = _mm_loadu_si128((const __m128i *)(const void *)t->lo[j]);
		hi[j] = _mm_loadu_si128((const __m128i *)(const void *)t->hi[j]);
	}
	const __m128i zero = _mm_setzero_si128();
	for (; pos < len && len - pos >= block_span(t); pos += 64) {
		const uint8_t *p = buf + pos + t->offset;
		uint64_t m = 0;
		for (int q = 0; q < 4; q++) {
			__m128i b = buckets16(lo, hi, p + 16 * q, t->width);
			unsigned none = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, zero));
			m |= (uint64_t)(~none & 0xffffu) << (16 * q);
		}
		if (m) {
			*mask = m;
			return pos;
		}
	}
	*mask = 0;
	return pos;
}

/* Buckets left for the 32 starts whose fingerprints begin at p. */
static inline TARGET_AVX2 __m256i buckets32(const __m256i *lo, const __m256i *hi,
					    const uint8_t *p, uint32_t width)
{
	const __m256i nib = _mm256_set1_epi8(0x0f);
	__m256i acc = _mm256_set1_epi8(-1);
	for (uint32_t j = 0; j < width; j++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + j));
		__m256i l = _mm256_shuffle_epi8(lo[j], _mm256_and_si256(v, nib));
		__m256i h = _mm256_shuffle_epi8(hi[j], _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
		acc = _mm256_and_si256(acc, _mm256_and_si256(l, h));
	}
	return acc;
}

TARGET_AVX2 size_t teddy_scan_avx2(const struct teddy *t, const uint8_t *buf, size_t len,
				   size_t pos, uint64_t *mask)
{
	__m256i lo[TEDDY_MAX_WIDTH], hi[TEDDY_MAX_WIDTH];
	for (uint32_t j = 0; j < t->width; j++) {
		lo[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t->lo[j]));
		hi[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t->hi[j]));
	}
	const __m256i zero = _mm256_setzero_si256();
	for (; pos < len && len - pos >= block_span(t); pos += 64) {
		const uint8_t *p = buf + pos + t->offset;
		__m256i b0 = buckets32(lo, hi, p, t->width);
		__m256i b1 = buckets32(lo, hi, p + 32, t->width);
		uint64_t none = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b0, zero)) |
				(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b1, zero)) << 32;
		if (~none) {
			*mask = ~none;
			return pos;
		}
	}
	*mask = 0;
	return pos;
}

TARGET_AVX512 size_t teddy_scan_avx512(const struct teddy *t, const uint8_t *buf, size_t len,
				       size_t pos, uint64_t *mask)
{
	__m512i lo[TEDDY_MAX_WIDTH], hi[TEDDY_MAX_WIDTH];
	for (uint32_t j = 0; j < t->width; j++) {
		lo[j] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t->lo[j]));
		hi[j] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t->hi[j]));
	}
	const __m512i nib = _mm512_set1_epi8(0x0f);
	for (; pos < len && len - pos >= block_span(t); pos += 64) {
		const uint8_t *p = buf + pos + t->offset;
		__m512i acc = _mm512_set1_epi8(-1);
		for (uint32_t j = 0; j < t->width; j++) {
			__m512i v = _mm512_loadu_si512((const void *)(p + j));
			__m512i l = _mm512_shuffle_epi8(lo[j], _mm512_and_si512(v, nib));
			__m512i h = _mm512_shuffle_epi8(hi[j], _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
			acc = _mm512_and_si512(acc, _mm512_and_si512(l, h));
		}
		uint64_t m = _mm512_test_epi8_mask(acc, acc);
		if (m) {
			*mask = m;
			return pos;
		}
	}
	*mask = 0;
	return pos;
}
#else
typedef int teddy_x86_not_built; /* ISO C wants something in every file */
#endif
