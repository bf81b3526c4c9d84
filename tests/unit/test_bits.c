/* SPDX-License-Identifier: MIT */
/* test_bits.c - bits.h against the definitions, on this CPU's byte order.
 *
 * ctz64 and clear_lowest for every single bit and random words; bytes_equal_bits for every byte value, every placement of the
 * wanted byte among neighbours that defeat a carrying SWAR compare (c ^ 1,
 * c ^ 0x80, c - 1, c + 1, 0x80, 0x00, 0xff), random words, and loads at
 * every alignment: bit 8k is set exactly when p[k] == c, ctz64 / 8 is the
 * first such k (what the -f splitter relies on; a big-endian CPU, s390x,
 * needs the byte swap for it) and the multiply-add counts them.  Prints
 * "N passed, N failed"; exits non-zero on failure.
 */
#include "bits.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

static uint64_t rng_state = 88172645463325252u;
static uint64_t rnd64(void)
{
	rng_state ^= rng_state << 13; /* xorshift64 */
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned ctz_naive(uint64_t x)
{
	unsigned n = 0;
	while (!(x & 1)) {
		x >>= 1;
		n++;
	}
	return n;
}

static void ctz_clear_lowest(void)
{
	for (unsigned i = 0; i < 64; i++) {
		uint64_t bit = UINT64_C(1) << i;
		CHECK(ctz64(bit) == i, "ctz64(1 << %u) = %u", i, ctz64(bit));
		CHECK(ctz64(~UINT64_C(0) << i) == i, "ctz64(~0 << %u)", i);
		CHECK(clear_lowest(bit) == 0, "clear_lowest(1 << %u)", i);
	}
	for (int k = 0; k < 100000; k++) {
		uint64_t x = rnd64() & rnd64(); /* sparser words too */
		if (k & 1)
			x = rnd64();
		if (!x)
			continue;
		CHECK(ctz64(x) == ctz_naive(x), "ctz64(%#llx)", (unsigned long long)x);
		CHECK(clear_lowest(x) == (x ^ (UINT64_C(1) << ctz_naive(x))), "clear_lowest(%#llx)",
		      (unsigned long long)x);
	}
}

/* bytes_equal_bits(p, c) and bytes_equal_count(p, c) against the
 * definition. */
static void check_word(const unsigned char *p, unsigned char c)
{
	uint64_t want = 0;
	unsigned first = 8, count = 0;
	for (unsigned k = 0; k < 8; k++) {
		if (p[k] == c) {
			want |= UINT64_C(1) << (8 * k);
			count++;
			if (first == 8)
				first = k;
		}
	}
	uint64_t got = bytes_equal_bits(p, c);
	CHECK(got == want, "bytes_equal_bits(%02x %02x %02x %02x %02x %02x %02x %02x, %02x) = %#llx, want %#llx",
	      p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], c, (unsigned long long)got,
	      (unsigned long long)want);
	if (got == want && want)
		CHECK(ctz64(got) / 8 == first, "first %02x at %u, ctz says %u", c, first, ctz64(got) / 8);
	unsigned n = bytes_equal_count(p, c);
	CHECK(n == count, "bytes_equal_count of %02x: %u, want %u", c, n, count);
}

static void equal_bits_placements(void)
{
	for (unsigned c = 0; c < 256; c++) {
		const unsigned char near[] = { (unsigned char)(c ^ 1), (unsigned char)(c ^ 0x80),
					       (unsigned char)(c - 1), (unsigned char)(c + 1),
					       0x80, 0x00, 0xff };
		for (size_t f = 0; f < sizeof near; f++) {
			if (near[f] == c)
				continue;
			unsigned char w[8];
			/* every subset of the 8 positions holds c, the rest the neighbour */
			for (unsigned set = 0; set < 256; set++) {
				for (unsigned k = 0; k < 8; k++)
					w[k] = (set >> k) & 1 ? (unsigned char)c : near[f];
				check_word(w, (unsigned char)c);
			}
		}
	}
}

static void equal_bits_random(void)
{
	unsigned char buf[64 + 8];
	for (int round = 0; round < 2000; round++) {
		unsigned char c = (unsigned char)rnd64();
		for (size_t i = 0; i < sizeof buf; i++) {
			uint64_t r = rnd64();
			/* mostly c and its neighbours, so words hold several matches */
			buf[i] = (r & 3) == 0 ? c : (r & 3) == 1 ? (unsigned char)(c ^ (r >> 8)) : (unsigned char)(r >> 16);
		}
		for (size_t at = 0; at + 8 <= sizeof buf; at++) /* every alignment */
			check_word(buf + at, c);
	}
}

int main(void)
{
	ctz_clear_lowest();
	equal_bits_placements();
	equal_bits_random();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
