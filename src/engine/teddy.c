/* SPDX-License-Identifier: MIT */
/* teddy.c - building the Teddy tables, the scalar kernel and the choice of
 * vector kernel.  See teddy.h for the idea; the vector kernels live in
 * teddy_x86.c and teddy_neon.c.  Never allocates.
 */
#include "teddy.h"

#include <string.h>

static void admit(struct teddy *t, uint32_t j, uint8_t b, uint8_t bucket_bit)
{
	t->lo[j][b & 15] |= bucket_bit;
	t->hi[j][b >> 4] |= bucket_bit;
}

void teddy_build(struct teddy *t, const uint8_t *fp, size_t n, uint32_t width, uint32_t offset,
		 bool fold, enum simd_level level)
{
	memset(t, 0, sizeof *t);
	t->width = width;
	t->offset = offset;
	t->level = level;
	for (size_t i = 0; i < n; i++) {
		uint8_t bit = (uint8_t)(1u << (n <= TEDDY_BUCKETS ? i : i * TEDDY_BUCKETS / n));
		for (uint32_t j = 0; j < width; j++) {
			uint8_t b = fp[i * width + j];
			admit(t, j, b, bit);
			uint8_t lower = b | 0x20;
			if (fold && lower >= 'a' && lower <= 'z')
				admit(t, j, b ^ 0x20, bit);
		}
	}
	teddy_derive(t);
}

/* Whether the tables admit byte b at fingerprint byte j, in any bucket. */
static bool admits(const struct teddy *t, uint32_t j, unsigned b)
{
	return (t->lo[j][b & 15] & t->hi[j][b >> 4]) != 0;
}

void teddy_derive(struct teddy *t)
{
	uint8_t buckets = 0;
	uint32_t width = t->width <= TEDDY_MAX_WIDTH ? t->width : 0; /* a loaded one off the Teddy path: any value */
	for (uint32_t j = 0; j < width; j++)
		for (int k = 0; k < 16; k++)
			buckets |= t->lo[j][k] | t->hi[j][k];
	struct teddy_exact e = { .on = buckets && !(buckets & (buckets - 1)) };
	for (uint32_t j = 0; e.on && j < width; j++) {
		unsigned n = 0, first = 0, second = 0;
		for (unsigned b = 0; b < 256; b++) {
			if (!admits(t, j, b))
				continue;
			if (n++ == 0)
				first = b;
			else
				second = b;
		}
		unsigned lower = first | 0x20;
		bool letter = lower >= 'a' && lower <= 'z';
		if (n == 1) {
			e.byte[j] = (uint8_t)first;
		} else if (n == 2 && letter && second == (first ^ 0x20)) {
			e.byte[j] = (uint8_t)lower;
			e.fold[j] = 0x20;
		} else {
			e.on = false;
		}
	}
	t->exact = e;
}

/* The candidate bitmap of the block at pos, one byte at a time. */
static uint64_t block_scalar(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos)
{
	uint64_t m = 0;
	size_t span = t->offset + t->width; /* bytes from a start to its fingerprint's end */
	for (size_t i = 0; i < 64 && pos + i + span <= len; i++) {
		const uint8_t *p = buf + pos + i + t->offset;
		unsigned v = 0xff;
		for (uint32_t j = 0; j < t->width; j++)
			v &= t->lo[j][p[j] & 15] & t->hi[j][p[j] >> 4];
		m |= (uint64_t)(v != 0) << i;
	}
	return m;
}

size_t teddy_next_block(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
			uint64_t *mask)
{
	uint64_t m = 0;
#if SIMD_X86
	switch (t->level) {
	case SIMD_AVX512: pos = teddy_scan_avx512(t, buf, len, pos, &m); break;
	case SIMD_AVX2: pos = teddy_scan_avx2(t, buf, len, pos, &m); break;
	case SIMD_SSSE3: pos = teddy_scan_ssse3(t, buf, len, pos, &m); break;
	case SIMD_NEON: case SIMD_SCALAR: case SIMD_BEST: break;
	}
#elif SIMD_ARM
	if (t->level == SIMD_NEON)
		pos = teddy_scan_neon(t, buf, len, pos, &m);
#endif
	if (m) {
		*mask = m;
		return pos;
	}
	for (; pos + t->offset + t->width <= len; pos += 64) {
		if ((m = block_scalar(t, buf, len, pos)) != 0) {
			*mask = m;
			return pos;
		}
	}
	return len;
}
