/* SPDX-License-Identifier: MIT */
/* window_sieve.c - building the HASH path's bucket sieve (window_sieve.h).
 *
 * Owns: collecting the set's distinct window-wide prefixes from the trie's
 * first levels (first[], in_cls and cls, which a compiled set holds, so
 * ac_load derives the sieve ac_compile did), each prefix byte standing for
 * the bytes of its class (both cases under -i); and putting them in 16
 * buckets: one bucket a prefix to start with (two neighbours past 32
 * prefixes), then, until 16 are left, the two neighbours in the trie's
 * order merged whose union adds the least to the share of text windows
 * that pass (a bucket passes the product over window bytes of its bytes'
 * frequencies, ac_byte_freq).  And which HASH kernel's tables a set gets
 * (ac_window_kernel_derive): the sieve, the sparse kernel's summaries or
 * the shift-or filter's cell (window_shift.c).
 */
#include "ac_internal.h"
#include "bits.h"
#include "pair_simd.h" /* window_folds */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Teddy's AVX-512 kernel gives its candidates the second look itself
 * (teddy.h's struct teddy_window) from this modelled share of candidate
 * positions (ac_teddy_share), about one in three blocks: then a block
 * with a false candidate would often leave the kernel and come back, and
 * 20 literals of 32 bytes (lit32x20, 0.85% modelled, 1.7% on English
 * text) scan 13% faster; below it, a block's cost of looking (5 names:
 * 0.005%) is the 2-4% it would add. */
#define TEDDY_LOOK_SHARE 0.005

/* A bucket while merging: per window byte, the admitted bytes (low 7
 * bits) and the sum of their frequencies; the share of windows it passes. */
struct bucket {
	uint64_t set[4][2];
	double freq[4];
	double pass;
};

struct collect {
	const ac_automaton *ac;
	uint32_t width;
	uint64_t (*class_bytes)[2];   /* each class's bytes (low 7 bits) */
	double *class_freq;           /* their frequency, high-bit twins too */
	double any_freq;              /* every byte's: a 3-byte window's fourth */
	const double *freq7;          /* each byte's (low 7 bits) with its twin's */
	uint8_t path[4];              /* the classes down to the node in hand */
	bool pair;                    /* two prefixes to a bucket */
	size_t prefixes;              /* found so far */
	struct bucket *b;
	size_t n;                     /* buckets filled */
};

/* The frequency of the bytes in set (low 7 bits), freq7[] that of each
 * with its high-bit twin. */
static double set_freq(const uint64_t set[2], const double *freq7)
{
	double sum = 0;
	for (unsigned w = 0; w < 2; w++)
		for (uint64_t bits = set[w]; bits; bits = clear_lowest(bits))
			sum += freq7[64 * w + (unsigned)ctz64(bits)];
	return sum;
}

/* Appends the prefixes below `node` (at `depth`) to the buckets; with
 * c->pair, two neighbours in the trie's order to a bucket (which the
 * merge's choice among neighbours would mostly make anyway, at half the
 * cost). */
static void collect(struct collect *c, uint32_t node, uint32_t depth)
{
	const ac_automaton *ac = c->ac;
	if (depth == c->width) {
		bool second = c->pair && c->prefixes++ % 2 == 1;
		struct bucket *b = &c->b[second ? c->n - 1 : c->n++];
		b->pass = 1;
		for (unsigned j = 0; j < 4; j++) {
			bool any = j >= c->width;
			uint64_t lo = any ? ~UINT64_C(0) : c->class_bytes[c->path[j]][0];
			uint64_t hi = any ? ~UINT64_C(0) : c->class_bytes[c->path[j]][1];
			if (second && (lo & ~b->set[j][0] || hi & ~b->set[j][1])) {
				b->set[j][0] |= lo;
				b->set[j][1] |= hi;
				b->freq[j] = set_freq(b->set[j], c->freq7);
			} else if (!second) {
				b->set[j][0] = lo;
				b->set[j][1] = hi;
				b->freq[j] = any ? c->any_freq : c->class_freq[c->path[j]];
			}
			b->pass *= b->freq[j];
		}
		return;
	}
	for (uint32_t child = ac->first[node]; child < ac->first[node + 1]; child++) {
		c->path[depth] = ac->in_cls[child];
		collect(c, child, depth + 1);
	}
}

/* What the union of a and b adds to the share of windows passing (its
 * byte frequencies into freq). */
static double union_added(const struct bucket *a, const struct bucket *b, double freq[4],
			  const double *freq7)
{
	double pass = 1;
	for (unsigned j = 0; j < 4; j++) {
		uint64_t both[2] = { a->set[j][0] & b->set[j][0], a->set[j][1] & b->set[j][1] };
		uint64_t both_any = both[0] | both[1];
		freq[j] = a->freq[j] + b->freq[j] - (both_any ? set_freq(both, freq7) : 0);
		pass *= freq[j];
	}
	return pass - a->pass - b->pass;
}

/* Which of two pairs adds less (the left one on a tie). */
static size_t less_added(const double *added, size_t l, size_t r)
{
	return added[r] < added[l] ? r : l;
}

/* Merges the n buckets b[] (in the trie's order) into SIEVE_BUCKETS,
 * always the two neighbours in that order whose union adds least; alive[]
 * marks those left.  Neighbours share their first bytes; weighing every
 * pair instead would cut the windows passing on English text by a fifth
 * more, at n^2 unions where a 100-word set compiles in 20 microseconds.
 * A pair is known by its left bucket; a tournament tree over the pairs
 * (win[1] the least) finds the next merge in log n steps. */
static void merge(struct bucket *b, bool *alive, size_t n, const double *freq7)
{
	enum { LEAVES = SIEVE_MAX_PREFIXES / 2 }; /* a power of two */
	size_t next[LEAVES], prev[LEAVES], win[2 * LEAVES];
	double added[LEAVES];   /* pair i: bucket i with next[i]; HUGE_VAL for none */
	double freq[LEAVES][4]; /* that union's byte frequencies */
	for (size_t i = 0; i < LEAVES; i++) {
		next[i] = i + 1;
		prev[i] = i - 1; /* SIZE_MAX for the first */
		added[i] = i + 1 < n ? union_added(&b[i], &b[i + 1], freq[i], freq7) : HUGE_VAL;
		win[LEAVES + i] = i;
	}
	for (size_t node = LEAVES - 1; node >= 1; node--)
		win[node] = less_added(added, win[2 * node], win[2 * node + 1]);
	for (size_t left = n; left > SIEVE_BUCKETS; left--) {
		size_t i = win[1], k = next[i];
		for (unsigned j = 0; j < 4; j++) {
			b[i].set[j][0] |= b[k].set[j][0];
			b[i].set[j][1] |= b[k].set[j][1];
			b[i].freq[j] = freq[i][j];
		}
		b[i].pass += added[i] + b[k].pass;
		alive[k] = false;
		next[i] = next[k];
		if (next[i] < n)
			prev[next[i]] = i;
		/* the pairs that changed: k's (gone), i's and the one before i */
		size_t changed[3] = { k, i, prev[i] };
		added[k] = HUGE_VAL;
		added[i] = next[i] < n ? union_added(&b[i], &b[next[i]], freq[i], freq7) : HUGE_VAL;
		if (prev[i] < n)
			added[prev[i]] = union_added(&b[prev[i]], &b[i], freq[prev[i]], freq7);
		for (unsigned c = 0; c < 3 && changed[c] < n; c++)
			for (size_t node = (LEAVES + changed[c]) / 2; node >= 1; node /= 2)
				win[node] = less_added(added, win[2 * node], win[2 * node + 1]);
	}
}

bool ac_sieve_build(const ac_automaton *ac, struct window_sieve *s)
{
	struct bucket b[SIEVE_MAX_PREFIXES / 2];
	uint64_t class_bytes[256][2] = { { 0 } };
	double class_freq[256] = { 0 };
	double freq7[128];
	struct collect c = { .ac = ac, .width = ac->window_width, .class_bytes = class_bytes,
			     .class_freq = class_freq, .freq7 = freq7, .b = b };
	if (c.width < 1 || c.width > 4)
		return false;
	/* the prefixes are the states at depth width: ids breadth-first, a
	 * depth's children make the next depth */
	uint32_t lo = AC_ROOT, hi = AC_ROOT + 1;
	for (uint32_t d = 0; d < c.width; d++) {
		lo = ac->first[lo];
		hi = ac->first[hi];
	}
	size_t prefixes = hi - lo;
	if (prefixes > SIEVE_MAX_PREFIXES)
		return false;
	c.pair = prefixes > 2 * SIEVE_BUCKETS;
	for (unsigned byte = 0; byte < 128; byte++)
		freq7[byte] = ac_byte_freq((uint8_t)byte) + ac_byte_freq((uint8_t)(byte | 128)) + 1e-6;
	for (unsigned byte = 0; byte < 256; byte++) {
		uint8_t k = ac->cls[byte];
		uint64_t bit = UINT64_C(1) << (byte & 63);
		if (!(c.class_bytes[k][(byte & 127) >> 6] & bit))
			c.class_freq[k] += freq7[byte & 127];
		c.class_bytes[k][(byte & 127) >> 6] |= bit;
	}
	const uint64_t every[2] = { ~UINT64_C(0), ~UINT64_C(0) };
	c.any_freq = set_freq(every, freq7);
	collect(&c, AC_ROOT, 0);
	bool alive[SIEVE_MAX_PREFIXES / 2];
	for (size_t i = 0; i < c.n; i++)
		alive[i] = true;
	if (c.n > SIEVE_BUCKETS)
		merge(b, alive, c.n, freq7);
	memset(s, 0, sizeof *s);
	unsigned bucket = 0;
	for (size_t i = 0; i < c.n; i++) {
		if (!alive[i])
			continue;
		for (unsigned j = 0; j < 4; j++)
			for (unsigned w = 0; w < 2; w++)
				for (uint64_t bits = b[i].set[j][w]; bits; bits = clear_lowest(bits))
					s->admit[j][bucket / 8][64 * w + (unsigned)ctz64(bits)] |=
						(uint8_t)(1u << (bucket % 8));
		bucket++;
	}
	return true;
}

void ac_window_kernel_derive(ac_automaton *ac)
{
	bool sparse = ac->path == AC_PATH_HASH && ac->window_stride == 1 && ac->window_sparse;
	ac->window_sieved = SIMD_X86 && sparse && ac->simd == SIMD_AVX512 && simd_cpu_vbmi() &&
			    ac_sieve_build(ac, &ac->window_sieve);
#if SIMD_X86
	if (sparse && !ac->window_sieved && ac->simd == SIMD_AVX512) /* the sparse kernel's */
		window_folds(ac->window_bits, ac->window_folds);
#endif
	/* the shift-or filter where the alternative is scalar lookups (SSSE3)
	 * or slow gathers (AVX2); built by the first scan (ac_window_shift) */
	ac_shift_free(ac);
	if (SIMD_X86 && ac->path == AC_PATH_HASH && ac->window_stride == 1 &&
	    (ac->simd == SIMD_SSSE3 || (ac->simd == SIMD_AVX2 && simd_cpu_slow_gathers())))
		ac->shift_cell = calloc(1, sizeof *ac->shift_cell); /* none without memory */
	bool looked = ac->path == AC_PATH_TEDDY && ac->window_width &&
		      ac_teddy_share(&ac->teddy) >= TEDDY_LOOK_SHARE;
	ac->teddy.window = (struct teddy_window){
		.bits = looked ? ac->window_bits : NULL, .mask = ac->window_mask, .fold = ac->window_fold,
	};
}
