/* SPDX-License-Identifier: MIT */
/* window_hash.h - the hash of a window of 1-4 bytes that the HASH
 * prefilter's table (ac_internal.h's ac_window_hash, the gather kernels of
 * pair_simd_x86.c) and the confirm table's buckets (ac_confirm.h) share.
 *
 * Owns: the rule.  The 4 bytes at a position as one 32-bit load (memcpy,
 * so byte order does not matter to a table built the same way), masked
 * to the window's bytes and OR-ed with the fold bits (0x20 in each byte
 * under AC_FOLD_ASCII: every letter lowercase, so text that matches
 * ignoring case hashes alike), times Knuth's golden-ratio constant; the
 * top `bits` bits are the index.
 */
#ifndef ACGREP_WINDOW_HASH_H
#define ACGREP_WINDOW_HASH_H

#include <stdint.h>

#define AC_WINDOW_MUL 0x9E3779B1u

/* The window hash of `load` to `bits` bits (1 to 32). */
static inline uint32_t ac_mask_hash(uint32_t load, uint32_t mask, uint32_t fold, unsigned bits)
{
	return (((load & mask) | fold) * AC_WINDOW_MUL) >> (32 - bits);
}

#endif
