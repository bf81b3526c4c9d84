/* SPDX-License-Identifier: MIT */
/* teddy_neon.c - the Teddy vector kernel of aarch64: Advanced SIMD (NEON),
 * 16 bytes per table lookup (TBL), four lookups per 64-byte block.  NEON is
 * part of every aarch64 CPU, so this needs no target attribute and no CPU
 * check beyond simd_cpu_level() answering SIMD_NEON.  Like the x86 kernels
 * (teddy_x86.c) it ANDs the nibble-table lookups of every fingerprint byte
 * and turns the bytes with a bucket bit left into a 64-bit candidate
 * bitmap; simd.h's block loop runs it over the text.
 */
#include "teddy.h"

#if SIMD_ARM
#include <arm_neon.h>

/* The kernel's state: the nibble tables in vector registers, one per
 * fingerprint byte, and where the fingerprint starts in a match. */
struct teddy_neon {
	uint8x16_t lo[TEDDY_MAX_WIDTH], hi[TEDDY_MAX_WIDTH];
	uint32_t width, offset;
};

/* 0xff for each of the 16 starts whose fingerprint at p keeps a bucket
 * bit, 0 for the others. */
SIMD_INLINE uint8x16_t candidates16(const struct teddy_neon *k, const uint8_t *p)
{
	const uint8x16_t nib = vdupq_n_u8(0x0f);
	uint8x16_t acc = vdupq_n_u8(0xff);
	for (uint32_t j = 0; j < k->width; j++) {
		uint8x16_t v = vld1q_u8(p + j);
		uint8x16_t l = vqtbl1q_u8(k->lo[j], vandq_u8(v, nib));
		uint8x16_t h = vqtbl1q_u8(k->hi[j], vshrq_n_u8(v, 4));
		acc = vandq_u8(acc, vandq_u8(l, h));
	}
	return vtstq_u8(acc, acc);
}

/* NEON has no byte movemask: each 0xff byte keeps its bit of 1 << (i % 8),
 * and three rounds of pairwise adds pack the 64 bytes, in order, into the
 * 8 bytes of one 64-bit lane. */
SIMD_INLINE uint64_t block_neon(const void *kernel, const uint8_t *block)
{
	static const uint8_t bit_of[16] = { 1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128 };
	const struct teddy_neon *k = kernel;
	const uint8_t *p = block + k->offset;
	const uint8x16_t bits = vld1q_u8(bit_of);
	uint8x16_t c0 = vandq_u8(candidates16(k, p), bits);
	uint8x16_t c1 = vandq_u8(candidates16(k, p + 16), bits);
	uint8x16_t c2 = vandq_u8(candidates16(k, p + 32), bits);
	uint8x16_t c3 = vandq_u8(candidates16(k, p + 48), bits);
	uint8x16_t s = vpaddq_u8(vpaddq_u8(c0, c1), vpaddq_u8(c2, c3));
	s = vpaddq_u8(s, s);
	return vgetq_lane_u64(vreinterpretq_u64_u8(s), 0);
}

size_t teddy_scan_neon(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
		       uint64_t *mask)
{
	struct teddy_neon k; /* only the tables of the fingerprint bytes are set, and read */
	k.width = t->width;
	k.offset = t->offset;
	for (uint32_t j = 0; j < t->width; j++) {
		k.lo[j] = vld1q_u8(t->lo[j]);
		k.hi[j] = vld1q_u8(t->hi[j]);
	}
	return simd_block_loop(block_neon, &k, buf, len, pos, 64 + t->offset + t->width - 1, mask);
}
#else
typedef int teddy_neon_not_built; /* ISO C wants something in every file */
#endif
