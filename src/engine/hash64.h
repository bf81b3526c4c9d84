/* SPDX-License-Identifier: MIT */
/* hash64.h - a fast 64-bit checksum of bytes: XXH64.
 *
 * Owns: the checksum that compiled pattern sets carry (secfile.h), fed in
 * pieces or over one buffer.  XXH64 as specified by Yann Collet
 * (xxhash.com, "xxHash fast digest algorithm", XXH64), seed 0: four
 * independent multiply-rotate lanes over 32-byte stripes, so it runs at
 * several bytes per cycle in portable C; its words are read little-endian
 * on every CPU, so a value is the same everywhere.  A checksum against
 * accidents (a truncated copy, a flipped bit), not against an adversary.
 * Part of the engine's public interface (see ac.h).
 */
#ifndef ACGREP_HASH64_H
#define ACGREP_HASH64_H

#include <stddef.h>
#include <stdint.h>

/* A checksum being computed; set up with hash64_init. */
struct hash64 {
	uint64_t lane[4];
	uint64_t total;   /* bytes fed */
	uint8_t tail[32]; /* bytes of a stripe not yet complete */
	uint32_t n_tail;
};

void hash64_init(struct hash64 *h);

/* Feeds p[0..n). */
void hash64_update(struct hash64 *h, const void *p, size_t n);

/* The checksum of everything fed (h itself is left as it was). */
uint64_t hash64_final(const struct hash64 *h);

/* The checksum of p[0..n) in one call. */
uint64_t hash64(const void *p, size_t n);

#endif
