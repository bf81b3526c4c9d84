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

typedef size_t teddy_kernel_fn(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
			       uint64_t *mask);

/* Bytes a vector kernel reads from a block's start: to the last start's
 * fingerprint end, or its 4-byte second look (TEDDY_LOOK_SPAN). */
static size_t kernel_span(const struct teddy *t)
{
	size_t span = 64 + (size_t)t->offset + t->width - 1;
	return t->window.bits && span < TEDDY_LOOK_SPAN ? TEDDY_LOOK_SPAN : span;
}

/* The starts of buf[pos..len) that the kernel left, too few bytes for its
 * block (every input's last bytes): the kernel over a copy padded with
 * zeros, its bits for starts whose fingerprint would reach into the
 * padding cleared.  The scalar loop's 30 instructions a byte made the last
 * bytes of each small file cost more than a whole 4 KiB one.  Returns
 * like teddy_next_block, or pos with *mask 0 when the copy does not fit
 * (a loaded set's offset far into its patterns). */
static size_t padded_tail(const struct teddy *t, teddy_kernel_fn *scan, const uint8_t *buf, size_t len,
			  size_t pos, uint64_t *mask)
{
	uint8_t pad[TEDDY_TAIL_PAD];
	size_t fp_end = (size_t)t->offset + t->width, span = kernel_span(t);
	*mask = 0;
	if (pos > len || len - pos < fp_end) /* no start left (the caller may be past len) */
		return len;
	size_t starts = len - pos - fp_end + 1, blocks = (starts + 63) / 64;
	size_t padded = (blocks - 1) * 64 + span;
	if (padded > sizeof pad)
		return pos;
	memcpy(pad, buf + pos, len - pos);
	memset(pad + (len - pos), 0, padded - (len - pos));
	for (size_t at = 0; at < starts; at += 64) {
		uint64_t m = 0;
		at = scan(t, pad, padded, at, &m);
		if (at < starts && starts - at < 64)
			m &= (UINT64_C(1) << (starts - at)) - 1;
		if (m) {
			*mask = m;
			return pos + at;
		}
	}
	return len;
}

/* The scalar kernel from pos. */
static size_t scalar_next(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos, uint64_t *mask)
{
	for (; pos + t->offset + t->width <= len; pos += 64) {
		uint64_t m = block_scalar(t, buf, len, pos);
		if (m) {
			*mask = m;
			return pos;
		}
	}
	return len;
}

/* The vector kernel `scan` from pos, then the last bytes from a padded
 * copy; the scalar kernel finishes where the copy does not fit.  Inlined
 * with `scan` known: a direct call. */
static inline size_t vector_next(const struct teddy *t, teddy_kernel_fn *scan, const uint8_t *buf, size_t len,
				 size_t pos, uint64_t *mask)
{
	uint64_t m = 0;
	pos = scan(t, buf, len, pos, &m);
	if (!m)
		pos = padded_tail(t, scan, buf, len, pos, &m);
	if (m) {
		*mask = m;
		return pos;
	}
	return scalar_next(t, buf, len, pos, mask);
}

size_t teddy_next_block(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
			uint64_t *mask)
{
	switch (t->level) {
#if SIMD_X86
	case SIMD_AVX512: return vector_next(t, teddy_scan_avx512, buf, len, pos, mask);
	case SIMD_AVX2: return vector_next(t, teddy_scan_avx2, buf, len, pos, mask);
	case SIMD_SSSE3: return vector_next(t, teddy_scan_ssse3, buf, len, pos, mask);
#elif SIMD_ARM
	case SIMD_NEON: return vector_next(t, teddy_scan_neon, buf, len, pos, mask);
#endif
	default: return scalar_next(t, buf, len, pos, mask);
	}
}
