/* SPDX-License-Identifier: MIT */
/* hash64.c - XXH64 (see hash64.h), in pieces or in one call.
 */
#include "hash64.h"

#include <string.h>

#define P1 UINT64_C(0x9E3779B185EBCA87)
#define P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define P3 UINT64_C(0x165667B19E3779F9)
#define P4 UINT64_C(0x85EBCA77C2B2AE63)
#define P5 UINT64_C(0x27D4EB2F165667C5)

static inline uint64_t rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

/* The little-endian words at p, on any CPU. */
static inline uint64_t read64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint32_t read32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline uint64_t round64(uint64_t acc, uint64_t input)
{
	return rotl(acc + input * P2, 31) * P1;
}

static inline uint64_t merge(uint64_t h, uint64_t lane)
{
	return (h ^ round64(0, lane)) * P1 + P4;
}

/* Runs the lanes over the whole stripes of p[0..n); returns the bytes used. */
static size_t stripes(uint64_t lane[4], const uint8_t *p, size_t n)
{
	uint64_t a = lane[0], b = lane[1], c = lane[2], d = lane[3];
	size_t i = 0;
	for (; n - i >= 32; i += 32) {
		a = round64(a, read64(p + i));
		b = round64(b, read64(p + i + 8));
		c = round64(c, read64(p + i + 16));
		d = round64(d, read64(p + i + 24));
	}
	lane[0] = a, lane[1] = b, lane[2] = c, lane[3] = d;
	return i;
}

void hash64_init(struct hash64 *h)
{
	*h = (struct hash64){ .lane = { P1 + P2, P2, 0, -P1 } };
}

void hash64_update(struct hash64 *h, const void *data, size_t n)
{
	const uint8_t *p = data;
	h->total += n;
	if (h->n_tail) {
		size_t take = 32 - h->n_tail < n ? 32 - h->n_tail : n;
		memcpy(h->tail + h->n_tail, p, take);
		h->n_tail += (uint32_t)take;
		p += take;
		n -= take;
		if (h->n_tail < 32)
			return;
		stripes(h->lane, h->tail, 32);
		h->n_tail = 0;
	}
	size_t used = stripes(h->lane, p, n);
	memcpy(h->tail, p + used, n - used);
	h->n_tail = (uint32_t)(n - used);
}

uint64_t hash64_final(const struct hash64 *h)
{
	const uint64_t *v = h->lane;
	uint64_t acc = h->total >= 32 ? rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)
				      : P5;
	if (h->total >= 32)
		for (int k = 0; k < 4; k++)
			acc = merge(acc, v[k]);
	acc += h->total;
	const uint8_t *p = h->tail;
	size_t n = h->n_tail;
	for (; n >= 8; p += 8, n -= 8)
		acc = rotl(acc ^ round64(0, read64(p)), 27) * P1 + P4;
	if (n >= 4) {
		acc = rotl(acc ^ (uint64_t)read32(p) * P1, 23) * P2 + P3;
		p += 4;
		n -= 4;
	}
	for (; n > 0; p++, n--)
		acc = rotl(acc ^ *p * P5, 11) * P1;
	acc ^= acc >> 33;
	acc *= P2;
	acc ^= acc >> 29;
	acc *= P3;
	return acc ^ (acc >> 32);
}

uint64_t hash64(const void *p, size_t n)
{
	struct hash64 h;
	hash64_init(&h);
	hash64_update(&h, p, n);
	return hash64_final(&h);
}
