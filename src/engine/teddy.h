/* SPDX-License-Identifier: MIT */
/* teddy.h - SIMD candidate bitmaps from nibble-table fingerprints.
 *
 * Owns: the "Teddy" prefilter for small pattern sets.  Each distinct
 * fingerprint (the first 1-3 bytes of a pattern, or for a single pattern
 * its rarest 1-3 byte window) goes into one of 8 buckets; per fingerprint
 * byte position two 16-entry tables give the buckets whose fingerprints
 * allow that low and that high nibble.  With byte shuffles (PSHUFB) the
 * tables are looked up for 16, 32 or 64 text bytes at once, the answers
 * ANDed over the positions, and every byte with a bucket bit left becomes a
 * candidate bit in a 64-bit bitmap, which the scan loop walks with ctz and
 * confirms with the automaton.  A candidate is necessary for a match, never
 * sufficient.  Kernels: scalar (every CPU, and the reference the tests
 * compare against), SSSE3, AVX2 and AVX-512BW, chosen at run time.
 *
 * Reference: the Teddy algorithm of Hyperscan (G. Langdale et al., NSDI
 * 2019) as later described for ripgrep's aho-corasick crate; this is an
 * independent implementation of the published idea.
 */
#ifndef ACGREP_TEDDY_H
#define ACGREP_TEDDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simd.h"

#define TEDDY_MAX_WIDTH 3
/* Bytes the second look (teddy_window) reads from a block's start: the
 * 4-byte window of its last start. */
#define TEDDY_LOOK_SPAN 67
/* The stack copy that the last bytes of an input are scanned from: two
 * blocks' starts with the look, or one block's up to an offset of 320
 * (the builder's offsets stay below 256). */
#define TEDDY_TAIL_PAD 384
#define TEDDY_BUCKETS 8

/* A second look the AVX-512 kernel gives its candidates, where the scan
 * would give it one by one: a start stays a candidate only when its
 * window's bit is set in the hashed-window table `bits` (ac_window_bit,
 * with the window's mask and fold).  No second look while bits is NULL. */
struct teddy_window {
	const uint64_t *bits;
	uint32_t mask, fold;
};

/* A set with one fingerprint needs no tables: its candidates are the
 * starts whose fingerprint bytes, ORed with fold[j], equal byte[j] (byte[j]
 * in lower case and fold[j] 0x20 where a letter admits both cases, else
 * fold[j] 0), which two byte compares per position find (the x86 kernels'
 * "exact" form, as Hyperscan's noodle and memchr's memmem compare bytes). */
struct teddy_exact {
	bool on;
	uint8_t byte[TEDDY_MAX_WIDTH], fold[TEDDY_MAX_WIDTH];
};

struct teddy {
	uint8_t lo[TEDDY_MAX_WIDTH][16]; /* buckets allowing each low nibble at fingerprint byte j */
	uint8_t hi[TEDDY_MAX_WIDTH][16]; /* ... each high nibble */
	uint32_t width;                  /* fingerprint bytes, 1..TEDDY_MAX_WIDTH */
	uint32_t offset;                 /* where the fingerprint starts in every match */
	enum simd_level level;
	struct teddy_window window;
	struct teddy_exact exact;        /* derived from the tables: teddy_derive */
};

/* Fills t for n fingerprints of `width` bytes, fp[i * width ..], found at
 * `offset` bytes into every match; with fold, each ASCII letter also admits
 * its other case.  Fingerprints are put in buckets in the order given (so
 * sorted input keeps similar ones together).  `level` is the kernel to use:
 * the caller has checked it against simd_cpu_level(). */
void teddy_build(struct teddy *t, const uint8_t *fp, size_t n, uint32_t width, uint32_t offset,
		 bool fold, enum simd_level level);

/* Sets t->exact from t's tables and width: on when one bucket is in use
 * and each fingerprint byte admits one byte or the two cases of a letter,
 * so that comparing bytes finds exactly the starts the tables pass.
 * teddy_build calls it; a loader that fills the tables itself must too
 * (any width: past TEDDY_MAX_WIDTH the form is off). */
void teddy_derive(struct teddy *t);

/* From pos, in steps of 64 bytes, finds the first block of buf[0..len) with
 * a candidate: returns its start and sets *mask (bit i set when a match may
 * start at block + i; no bit past len), or returns len.  Never reads
 * outside buf[0..len). */
size_t teddy_next_block(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
			uint64_t *mask);

#if SIMD_X86
/* The vector kernels (teddy_x86.c): like teddy_next_block over the blocks
 * whose fingerprint bytes all lie in buf[0..len), returning the first
 * block with a candidate (and its *mask), or the first block they cannot
 * read whole (with *mask = 0).  Only for a level simd_cpu_level() allows. */
size_t teddy_scan_ssse3(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
			uint64_t *mask);
size_t teddy_scan_avx2(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
		       uint64_t *mask);
size_t teddy_scan_avx512(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
			 uint64_t *mask);
#endif

#if SIMD_ARM
/* The NEON kernel (teddy_neon.c), with the contract of the x86 ones. */
size_t teddy_scan_neon(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
		       uint64_t *mask);
#endif

#endif
