/* SPDX-License-Identifier: MIT */
/* window_shift.h - the HASH path's shift-or filter over byte pairs.
 *
 * Owns: the reach table that says, per hashed byte pair and per distance
 * of the pair's end from a window's end (a lane: 0 .. width - 2), which of
 * 8 buckets admit it; a window passes when one bucket admits each of its
 * width - 1 pairs at its distance.  The set's distinct window-wide
 * prefixes fill the buckets in the trie's order (window_shift.c), so
 * every window that starts a match passes.  The x86 kernel ORs each
 * position's 32-bit reach into a 128-bit state shifted by one byte a
 * position (a shift-or over 8 buckets at once, as Hyperscan's FDR does):
 * a table load, a shift and an OR a byte, where the gather kernels cost a
 * gathered lookup a byte.  The HASH table then decides each window that
 * passes (ac_blocks.c), so the scan's candidates are the table's.
 */
#ifndef ACGREP_WINDOW_SHIFT_H
#define ACGREP_WINDOW_SHIFT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A pair's hash: its first byte and the low 5 bits of its second (which
 * tell letters apart, not their case): 2^13 entries, 32 KiB. */
#define SHIFT_DOMAIN_BITS 13
#define SHIFT_BUCKETS 8

struct window_shift {
	/* reach[shift_domain(b0, b1)]: bit 8 * lane + bucket clear when the
	 * bucket admits the pair b0 b1 at that lane; the bits of lanes past
	 * width - 2 are clear.  NULL: the filter is off */
	uint32_t *reach;
	uint32_t width; /* window bytes, 3 or 4 (the HASH window's) */
	bool andn;      /* the kernel loads and masks each index with BMI1's
			   andn (where the CPU has it: simd_cpu_bmi1) */
	double share;   /* modelled share of text windows that pass
			   (ac_byte_freq's byte frequencies) */
};

/* Where a set's filter goes: the first scan that needs it builds it and
 * publishes it here (ac_window_shift), so that a compile pays nothing
 * for it and a set that scans little costs little. */
struct shift_cell {
	_Atomic(struct window_shift *) filter; /* NULL until built */
};

/* The reach table's index of the byte pair b0 b1. */
static inline unsigned shift_domain(uint8_t b0, uint8_t b1)
{
	return b0 | (unsigned)(b1 & 31) << 8;
}

/* Whether the window at p (ws->width bytes readable) passes the filter:
 * the definition the kernel follows. */
static inline bool window_shift_admits(const struct window_shift *ws, const uint8_t *p)
{
	uint32_t rejected = 0;
	for (uint32_t k = 1; k < ws->width; k++)
		rejected |= ws->reach[shift_domain(p[k - 1], p[k])] >> (8 * (ws->width - 1 - k));
	return (uint8_t)rejected != 0xff;
}

/* From pos, in steps of 64 bytes, over the blocks with 72 bytes readable
 * (buf[0..len)): returns the first block with a window that passes (and
 * its *mask, bit i set when the window at block + i does), or the first
 * block not handled (with *mask = 0), which the caller finishes in other
 * code.  SSE2: every x86-64 CPU, and BMI1 where ws->andn.  Defined where
 * SIMD_X86 is. */
size_t window_shift_scan(const struct window_shift *ws, const uint8_t *buf, size_t len, size_t pos,
			 uint64_t *mask);

#endif
