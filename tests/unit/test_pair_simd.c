/* SPDX-License-Identifier: MIT */
/* test_pair_simd.c - the gather kernels of the pair and hashed-window
 * prefilters (pair_simd.h) against their definition, at guarded page
 * edges.
 *
 * For random pair and window tables (3- and 4-byte windows, with and
 * without folding), and sparse window tables holding some of the text's
 * own windows (for window_scan_avx512_sparse, which tests the table's
 * window_folds summaries before the table), every kernel this CPU runs must return, from every
 * start position of every text of 0 to 200 bytes, the first 64-byte block
 * with a candidate and its mask (bit i set when the table has the pair, or
 * the window's hash, at block + i; for window_scan_sieve, when besides a
 * random sieve, admitting some of the text's windows, passes the window),
 * or the first block it does not handle
 * (fewer than 65 or 72 bytes readable) with mask 0.  The strided HASH
 * scan's group kernel (window_groups_avx2, strides 2, 4 and 8) likewise:
 * the first block whose looked-up windows (at S*g + S-1) hit, with bit
 * S*g for each, or the first without 67 bytes readable.  The texts end exactly
 * at an inaccessible page, and start exactly after another: a read past
 * either end faults.  Failures name the kernel.
 */
#include "ac_internal.h"
#include "pair_simd.h"

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "guard_page.h"

#if SIMD_X86

typedef size_t pair_kernel(const uint64_t pair[1024], const uint8_t *buf, size_t len, size_t pos,
			   uint64_t *mask);
typedef size_t window_kernel(const uint64_t *table, uint32_t wmask, uint32_t fold, const uint8_t *buf,
			     size_t len, size_t pos, uint64_t *mask);

static const struct {
	const char *name;
	enum simd_level level; /* the CPU runs it from this level on */
	pair_kernel *scan;
} pair_kernels[] = {
	{ .name = "pair_scan_avx2", .level = SIMD_AVX2, .scan = pair_scan_avx2 },
	{ .name = "pair_scan_avx512", .level = SIMD_AVX512, .scan = pair_scan_avx512 },
};

static const struct {
	const char *name;
	enum simd_level level;
	window_kernel *scan;
} window_kernels[] = {
	{ .name = "window_scan_avx2", .level = SIMD_AVX2, .scan = window_scan_avx2 },
	{ .name = "window_scan_avx512", .level = SIMD_AVX512, .scan = window_scan_avx512 },
};

/* The tables of one round. */
struct round {
	uint64_t pair[1024];
	uint64_t windows[1u << (AC_WINDOW_BITS - 6)];
	uint32_t folds[64]; /* window_folds(windows) */
	uint32_t wmask, fold;
	struct window_sieve sieve;
};

static unsigned rng_state = 2024;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 16) % n;
}

static int bit_at(const uint64_t *table, unsigned i)
{
	return (int)((table[i >> 6] >> (i & 63)) & 1);
}

/* The kinds of kernel: pair, window, window behind the sieve. */
enum kind { PAIR, WINDOW, SIEVE };

/* Whether position i of buf is a candidate, by the definition. */
static int candidate(const struct round *r, enum kind kind, const uint8_t *buf, size_t i)
{
	if (kind == PAIR)
		return bit_at(r->pair, (unsigned)buf[i] << 8 | buf[i + 1]);
	uint32_t load;
	memcpy(&load, buf + i, 4);
	return bit_at(r->windows, ac_window_hash(load, r->wmask, r->fold)) &&
	       (kind == WINDOW || window_sieve_admits(&r->sieve, buf + i));
}

/* What a kernel must return from pos: the first block with `span` bytes
 * readable and a candidate (its mask in *mask), else the first block
 * without them (*mask = 0). */
static size_t expected(const struct round *r, enum kind kind, const uint8_t *buf, size_t len, size_t pos,
		       uint64_t *mask)
{
	size_t span = kind == PAIR ? 65 : 72;
	for (; pos < len && len - pos >= span; pos += 64) {
		uint64_t m = 0;
		for (size_t i = 0; i < 64; i++)
			m |= (uint64_t)candidate(r, kind, buf, pos + i) << i;
		if (m) {
			*mask = m;
			return pos;
		}
	}
	*mask = 0;
	return pos;
}

static void fill_round(struct round *r, unsigned density)
{
	for (size_t k = 0; k < 1024; k++)
		r->pair[k] = 0;
	for (size_t k = 0; k < 65536 / density; k++) {
		unsigned i = rnd(65536);
		r->pair[i >> 6] |= UINT64_C(1) << (i & 63);
	}
	memset(r->windows, 0, sizeof r->windows);
	for (size_t k = 0; k < (1u << AC_WINDOW_BITS) / density; k++) {
		unsigned i = rnd(1u << AC_WINDOW_BITS);
		r->windows[i >> 6] |= UINT64_C(1) << (i & 63);
	}
	r->wmask = rnd(2) ? 0xffffffffu : 0;
	if (!r->wmask)
		memcpy(&r->wmask, (const uint8_t[4]){ 0xff, 0xff, 0xff, 0 }, 4); /* a 3-byte window */
	r->fold = rnd(2) ? 0x20202020u & r->wmask : 0;
	window_folds(r->windows, r->folds);
}

/* A sparse window table, as the sparse kernel serves: a few random bits
 * and the windows at a few positions of buf[0..len). */
static void sparse_round(struct round *r, const uint8_t *buf, size_t len)
{
	memset(r->windows, 0, sizeof r->windows);
	for (int k = 0; k < 40; k++) {
		unsigned h = rnd(1u << AC_WINDOW_BITS);
		if (k % 4 == 0 && len >= 4) {
			uint32_t load;
			memcpy(&load, buf + rnd((unsigned)(len - 3)), 4);
			h = ac_window_hash(load, r->wmask, r->fold);
		}
		r->windows[h >> 6] |= UINT64_C(1) << (h & 63);
	}
	window_folds(r->windows, r->folds);
}

/* A sieve admitting random bytes in random buckets, and whole some of
 * the windows of buf[0..len). */
static void sieve_round(struct round *r, const uint8_t *buf, size_t len)
{
	memset(&r->sieve, 0, sizeof r->sieve);
	for (int k = 0; k < 256; k++)
		r->sieve.admit[rnd(4)][rnd(2)][rnd(128)] |= (uint8_t)(1u << rnd(8));
	for (int k = 0; k < 6 && len >= 4; k++) {
		const uint8_t *w = buf + rnd((unsigned)(len - 3));
		unsigned bucket = rnd(SIEVE_BUCKETS);
		for (unsigned j = 0; j < 4; j++)
			r->sieve.admit[j][bucket / 8][w[j] & 127] |= (uint8_t)(1u << (bucket % 8));
	}
}

/* What window_groups_avx2 must return from pos with stride S: the first
 * block with 67 bytes readable where the window at block + S*g + S-1 is in
 * the table for some g (bit S*g of *mask set for each such g), else the
 * first block without them (*mask = 0). */
static size_t expected_groups(const struct round *r, uint32_t stride, const uint8_t *buf, size_t len,
			      size_t pos, uint64_t *mask)
{
	for (; pos < len && len - pos >= 67; pos += 64) {
		uint64_t m = 0;
		for (uint32_t g = 0; g < 64; g += stride)
			m |= (uint64_t)candidate(r, WINDOW, buf, pos + g + stride - 1) << g;
		if (m) {
			*mask = m;
			return pos;
		}
	}
	*mask = 0;
	return pos;
}

/* window_groups_avx2 with each stride, from every pos of buf[0..len). */
static void check_groups(const struct round *r, const uint8_t *buf, size_t len, const char *where)
{
	for (size_t pos = 0; pos <= len; pos++)
		for (uint32_t stride = 2; stride <= 8; stride *= 2) {
			uint64_t want = 0, got = 0;
			size_t wb = expected_groups(r, stride, buf, len, pos, &want);
			size_t gb = window_groups_avx2(r->windows, r->wmask, r->fold, stride, buf, len, pos, &got);
			CHECK(gb == wb && got == want, "window_groups_avx2, stride %u, text %s: len %zu pos %zu: "
			      "block %zu mask %llx, want %zu %llx", stride, where, len, pos, gb,
			      (unsigned long long)got, wb, (unsigned long long)want);
		}
}

/* Every kernel the CPU runs, from every pos of buf[0..len). */
static void check_text(const struct round *r, const uint8_t *buf, size_t len, const char *where,
		       enum simd_level cpu)
{
	for (size_t pos = 0; pos <= len; pos++) {
		for (int window = 0; window < 2; window++) {
			uint64_t want = 0;
			size_t wb = expected(r, window ? WINDOW : PAIR, buf, len, pos, &want);
			size_t n = window ? sizeof window_kernels / sizeof *window_kernels
					  : sizeof pair_kernels / sizeof *pair_kernels;
			for (size_t k = 0; k < n; k++) {
				enum simd_level level = window ? window_kernels[k].level : pair_kernels[k].level;
				if (level > cpu)
					continue;
				uint64_t got = 0;
				size_t gb = window ? window_kernels[k].scan(r->windows, r->wmask, r->fold, buf, len, pos, &got)
						   : pair_kernels[k].scan(r->pair, buf, len, pos, &got);
				CHECK(gb == wb && got == want, "%s, text %s: len %zu pos %zu: block %zu mask %llx, want %zu %llx",
				      window ? window_kernels[k].name : pair_kernels[k].name, where, len, pos, gb,
				      (unsigned long long)got, wb, (unsigned long long)want);
			}
			if (window && cpu >= SIMD_AVX512) {
				uint64_t got = 0;
				size_t gb = window_scan_avx512_sparse(r->windows, r->folds, r->wmask, r->fold, buf, len,
								      pos, &got);
				CHECK(gb == wb && got == want, "window_scan_avx512_sparse, text %s: len %zu pos %zu", where,
				      len, pos);
			}
			if (window && cpu >= SIMD_AVX512 && simd_cpu_vbmi()) {
				uint64_t got = 0;
				wb = expected(r, SIEVE, buf, len, pos, &want);
				size_t gb = window_scan_sieve(&r->sieve, r->windows, r->wmask, r->fold, buf, len, pos, &got);
				CHECK(gb == wb && got == want, "window_scan_sieve, text %s: len %zu pos %zu: block %zu mask %llx, want %zu %llx",
				      where, len, pos, gb, (unsigned long long)got, wb, (unsigned long long)want);
			}
		}
	}
}

int main(void)
{
	enum simd_level cpu = simd_cpu_level();
	if (cpu < SIMD_AVX2) {
		printf("no gather kernel runs on this CPU\n");
		printf("%d passed, %d failed\n", passed, failed);
		return 0;
	}
	printf("gather kernels up to %s run on this CPU%s\n", cpu >= SIMD_AVX512 ? "AVX-512" : "AVX2",
	       cpu >= SIMD_AVX512 && simd_cpu_vbmi() ? ", and the VBMI sieve" : "");
	/* the texts end at an inaccessible page, or start after one */
	struct guard_page g;
	bool mapped = guard_page_map(&g);
	CHECK(mapped, "guard pages");
	if (!mapped)
		return 1;
	static struct round r;
	for (size_t len = 0; len <= 200; len++) {
		if (len % 16 == 0) /* sparse tables leave whole blocks without candidates */
			fill_round(&r, len % 48 == 0 ? 64 : 8);
		uint8_t *end_text = g.end - len, *start_text = g.start;
		for (size_t i = 0; i < len; i++)
			end_text[i] = (uint8_t)rnd(256);
		if (len % 16 == 8) /* then a sparse table holding some of this text's windows */
			sparse_round(&r, end_text, len);
		sieve_round(&r, end_text, len);
		check_text(&r, end_text, len, "ending at a guard page", cpu);
		check_groups(&r, end_text, len, "ending at a guard page");
		memmove(start_text, end_text, len);
		check_text(&r, start_text, len, "starting after a guard page", cpu);
		check_groups(&r, start_text, len, "starting after a guard page");
	}
	guard_page_free(&g);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}

#else

int main(void)
{
	printf("no gather kernels in this build\n");
	printf("%d passed, %d failed\n", passed, failed);
	return 0;
}

#endif
