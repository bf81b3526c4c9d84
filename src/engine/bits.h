/* SPDX-License-Identifier: MIT */
/* bits.h - bit tricks for the candidate bitmaps: ctz64 and clear_lowest,
 * and bytes_equal_bits / bytes_equal_count for scanning a word of text at
 * once (the SWAR byte compare, written here only).
 *
 * Owns: the one place where count-trailing-zeros is chosen.  By default the
 * compiler builtin (a single TZCNT/BSF on x86-64); `make CTZ=portable`
 * defines ACGREP_PORTABLE_CTZ and selects a De Bruijn multiply-and-lookup,
 * so the cost of a missing intrinsic can be measured (scripts/perf).  And
 * the one place where a word loaded from text is put in memory order, so
 * that ctz64 finds its first byte on a big-endian CPU too (s390x).
 * Knows nothing else.
 */
#ifndef ACGREP_BITS_H
#define ACGREP_BITS_H

#include <assert.h>
#include <stdint.h>
#include <string.h>

#ifdef ACGREP_PORTABLE_CTZ
/* Isolating the lowest set bit and multiplying by a De Bruijn sequence puts
 * a unique 6-bit pattern in the top bits (Leiserson, Prokop, Randall 1998,
 * "Using de Bruijn Sequences to Index a 1 in a Computer Word"). */
static const unsigned char bits_debruijn_index[64] = {
	0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28,
	62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
	63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
	51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
};
#define BITS_DEBRUIJN64 UINT64_C(0x022fdd63cc95386d)
#endif

/* Index of the lowest set bit of x.  Precondition: x != 0. */
static inline unsigned ctz64(uint64_t x)
{
	assert(x != 0);
#ifdef ACGREP_PORTABLE_CTZ
	return bits_debruijn_index[((x & -x) * BITS_DEBRUIJN64) >> 58];
#else
	return (unsigned)__builtin_ctzll(x);
#endif
}

/* x with its lowest set bit cleared. */
static inline uint64_t clear_lowest(uint64_t x)
{
	return x & (x - 1);
}

/* The bytes among the 8 at p (any alignment) that equal c, as the low bit
 * of each byte in memory order: p[k] is bit 8k, so ctz64(m) / 8 is the
 * first one, on either byte order.  Exact: no borrow crosses bytes.  Their
 * number is the top byte of the product with 0x0101010101010101. */
static inline uint64_t bytes_equal_bits(const void *p, unsigned char c)
{
	const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	uint64_t x;
	memcpy(&x, p, sizeof x);
#if !defined(__BYTE_ORDER__)
#error "bytes_equal_bits needs the compiler's __BYTE_ORDER__ (GCC, Clang)"
#elif __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x); /* p[0] becomes the low byte */
#endif
	x ^= UINT64_C(0x0101010101010101) * c; /* bytes equal to c become zero */
	return (~(((x & low7) + low7) | x | low7)) >> 7;
}

/* How many of the 8 bytes at p equal c. */
static inline unsigned bytes_equal_count(const void *p, unsigned char c)
{
	return (unsigned)((bytes_equal_bits(p, c) * UINT64_C(0x0101010101010101)) >> 56);
}

#endif
