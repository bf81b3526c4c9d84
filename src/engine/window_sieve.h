/* SPDX-License-Identifier: MIT */
/* window_sieve.h - the HASH path's bucket sieve.
 *
 * Owns: the tables that say, per byte j of a 3-4 byte window and per byte
 * value (its low 7 bits), which of 16 buckets admit it; a window passes
 * when one bucket admits all of its bytes.  The set's distinct window-wide
 * prefixes are put in the buckets (ac_window_kernel_derive, window_sieve.c), so
 * every window that starts a match passes.  The AVX-512 VBMI kernel
 * (pair_simd.h) looks the tables up for 64 windows with 8 byte permutes,
 * and hashes into the HASH table only the few windows that pass, where
 * the sparse kernel hashes every window.
 */
#ifndef ACGREP_WINDOW_SIEVE_H
#define ACGREP_WINDOW_SIEVE_H

#include <stdbool.h>
#include <stdint.h>

#define SIEVE_BUCKETS 16
/* The most prefixes the sieve takes: its buckets hold 8 each at most. */
#define SIEVE_MAX_PREFIXES 128

struct window_sieve {
	/* admit[j][h][b & 127]: bit k set when bucket 8h + k admits byte b
	 * at window byte j; all set at j = 3 for a 3-byte window */
	uint8_t admit[4][2][128];
};

/* Whether the window at p (4 bytes readable) passes the sieve. */
static inline bool window_sieve_admits(const struct window_sieve *s, const uint8_t *p)
{
	unsigned lo = 0xff, hi = 0xff;
	for (int j = 0; j < 4; j++) {
		lo &= s->admit[j][0][p[j] & 127];
		hi &= s->admit[j][1][p[j] & 127];
	}
	return (lo | hi) != 0;
}

#endif
