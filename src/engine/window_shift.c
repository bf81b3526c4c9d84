/* SPDX-License-Identifier: MIT */
/* window_shift.c - the HASH path's shift-or filter (window_shift.h): its
 * reach table, built from the trie's first levels by the first scan that
 * needs it, and its x86 kernel.
 *
 * Owns: collecting the set's distinct window-wide prefixes from first[],
 * in_cls and cls (which a compiled set holds, so ac_load derives the
 * table ac_compile did), each prefix byte standing for the bytes of its
 * class (both cases under -i); putting them in 8 buckets in the trie's
 * order (neighbours share their first bytes, so a bucket admits fewer
 * pairs than one of prefixes dealt out in turn: over English text 0.50%
 * of windows pass words100's buckets against 0.65%); the modelled share
 * of windows that pass, and declining the filter past SHIFT_MAX_SHARE;
 * publishing one build in the set's shift_cell where threads race; the
 * SSE2 kernel, with BMI1's andn where the CPU has it.
 */
#include "ac_internal.h"
#include "bits.h"
#include "simd.h"

#include <stdlib.h>
#include <string.h>

#if SIMD_X86
#include <emmintrin.h>
#endif

struct fill {
	const ac_automaton *ac;
	struct window_shift *ws;
	const uint8_t *by_class;     /* the bytes in the order of their classes */
	const uint16_t *class_start; /* class k's: by_class[class_start[k] .. class_start[k + 1]) */
	const double *class_freq;    /* the frequency of each class's bytes (ac_byte_freq) */
	const double *class_low5;    /* of the bytes sharing low 5 bits with one of them */
	double lane_freq[SHIFT_BUCKETS][3]; /* per bucket and lane: the frequency of
					       the pairs it admits there */
	uint8_t path[4];             /* the classes down to the node in hand */
	size_t prefixes, n;          /* prefixes put in so far, of n */
};

/* Admits the pairs of classes c0 c1 at `lane` in `bucket`; their
 * frequency counts once, when the classes' first bytes were not admitted
 * there yet (a neighbour in the trie shares its first pair).  A class no
 * byte is in (an edge no text takes, which only a loaded set's tables
 * can hold) has no pairs. */
static void admit_pair(struct fill *f, uint8_t c0, uint8_t c1, unsigned lane, unsigned bucket)
{
	uint32_t bit = UINT32_C(1) << (8 * lane + bucket);
	unsigned i0 = f->class_start[c0], i1 = f->class_start[c0 + 1];
	unsigned j0 = f->class_start[c1], j1 = f->class_start[c1 + 1];
	if (i0 == i1 || j0 == j1)
		return;
	if (f->ws->reach[shift_domain(f->by_class[i0], f->by_class[j0])] & bit)
		f->lane_freq[bucket][lane] += f->class_freq[c0] * f->class_low5[c1];
	for (unsigned i = i0; i < i1; i++)
		for (unsigned j = j0; j < j1; j++)
			f->ws->reach[shift_domain(f->by_class[i], f->by_class[j])] &= ~bit;
}

/* Puts the prefixes below `node` (at `depth`) in their buckets. */
static void fill(struct fill *f, uint32_t node, uint32_t depth)
{
	const ac_automaton *ac = f->ac;
	uint32_t width = f->ws->width;
	if (depth == width) {
		unsigned bucket = (unsigned)(f->prefixes++ * SHIFT_BUCKETS / f->n);
		for (uint32_t k = 1; k < width; k++)
			admit_pair(f, f->path[k - 1], f->path[k], width - 1 - k, bucket);
		return;
	}
	for (uint32_t child = ac->first[node]; child < ac->first[node + 1]; child++) {
		f->path[depth] = ac->in_cls[child];
		fill(f, child, depth + 1);
	}
}

bool ac_shift_build(const ac_automaton *ac, struct window_shift *ws)
{
	uint32_t width = ac->window_width;
	if (width < 3 || width > 4)
		return false;
	uint32_t lo = AC_ROOT, hi = AC_ROOT + 1;
	for (uint32_t d = 0; d < width; d++) {
		lo = ac->first[lo];
		hi = ac->first[hi];
	}
	if (hi == lo)
		return false;
	size_t entries = (size_t)1 << SHIFT_DOMAIN_BITS;
	uint32_t *reach = malloc(entries * sizeof *reach);
	if (!reach)
		return false;
	uint32_t lanes = (UINT32_C(1) << (8 * (width - 1))) - 1; /* 0 .. width - 2 */
	for (size_t d = 0; d < entries; d++)
		reach[d] = lanes;
	/* the bytes of each class, by a counting sort */
	uint16_t class_start[257] = { 0 };
	uint8_t by_class[256];
	double low5_freq[32] = { 0 }, class_freq[256] = { 0 }, class_low5[256] = { 0 };
	uint32_t class_low5s[256] = { 0 }; /* each class's low 5 bits, a bit each */
	for (unsigned byte = 0; byte < 256; byte++) {
		uint8_t k = ac->cls[byte];
		class_start[k + 1]++;
		double freq = ac_byte_freq((uint8_t)byte);
		class_freq[k] += freq;
		low5_freq[byte & 31] += freq;
		class_low5s[k] |= UINT32_C(1) << (byte & 31);
	}
	for (unsigned k = 0; k < 256; k++)
		class_start[k + 1] += class_start[k];
	uint16_t next[256];
	memcpy(next, class_start, sizeof next);
	for (unsigned byte = 0; byte < 256; byte++)
		by_class[next[ac->cls[byte]]++] = (uint8_t)byte;
	for (unsigned k = 0; k < 256; k++)
		for (uint32_t low = class_low5s[k]; low; low &= low - 1)
			class_low5[k] += low5_freq[ctz64(low)];
	*ws = (struct window_shift){ .reach = reach, .width = width, .andn = simd_cpu_bmi1() };
	struct fill f = { .ac = ac, .ws = ws, .by_class = by_class, .class_start = class_start,
			  .class_freq = class_freq, .class_low5 = class_low5, .n = hi - lo };
	fill(&f, AC_ROOT, 0);
	/* a window passes a bucket that admits each of its pairs, the pairs
	 * taken as independent */
	double share = 0;
	for (unsigned b = 0; b < SHIFT_BUCKETS; b++) {
		double pass = 1;
		for (uint32_t lane = 0; lane + 1 < width; lane++)
			pass *= f.lane_freq[b][lane];
		share += pass;
	}
	ws->share = share < 1 ? share : 1;
	return true;
}

/* The filter is declined past this modelled share of windows passing
 * it.  A guard no measured set reaches (30,000 dictionary words: 0.035
 * modelled, 15% of English windows passing, the filter still as fast as
 * the gathers): past it, looking up each window that passes could cost
 * more than the filter saves. */
#define SHIFT_MAX_SHARE 0.1

/* What a cell holds once the filter was declined. */
static struct window_shift shift_declined;

const struct window_shift *ac_window_shift(const ac_automaton *ac)
{
	struct shift_cell *cell = ac->shift_cell;
	struct window_shift *ws = atomic_load_explicit(&cell->filter, memory_order_acquire);
	if (!ws) {
		struct window_shift *mine = calloc(1, sizeof *mine);
		if (!mine || !ac_shift_build(ac, mine) || mine->share > SHIFT_MAX_SHARE) {
			if (mine)
				free(mine->reach);
			free(mine);
			mine = &shift_declined;
		}
		/* a thread that built the filter at the same time keeps its own */
		ws = NULL;
		if (atomic_compare_exchange_strong_explicit(&cell->filter, &ws, mine, memory_order_acq_rel,
							    memory_order_acquire))
			ws = mine;
		else if (mine != &shift_declined) {
			free(mine->reach);
			free(mine);
		}
	}
	return ws == &shift_declined ? NULL : ws;
}

void ac_shift_free(ac_automaton *ac)
{
	if (!ac->shift_cell)
		return;
	struct window_shift *ws = atomic_load_explicit(&ac->shift_cell->filter, memory_order_acquire);
	if (ws && ws != &shift_declined) {
		free(ws->reach);
		free(ws);
	}
	free(ac->shift_cell);
	ac->shift_cell = NULL;
}

#if SIMD_X86
/* The 4 bytes a pair's index is loaded from, as an asm operand. */
struct shift_quad {
	uint8_t b[4];
};

/* The reach of the pair at p (4 bytes readable: one load, whose low 13
 * bits are shift_domain(p[0], p[1]) on this little-endian CPU).  With
 * `andn` (BMI1) one instruction loads and masks the index: the kernel
 * then costs 4 instructions a byte instead of 5 (words100's scan over
 * English 5% faster, docs/perf.md). */
TARGET_SSE2 SIMD_INLINE __m128i shift_reach(const uint32_t *reach, const uint8_t *p, bool andn)
{
	uint64_t index;
	if (andn) {
		/* a 32-bit destination clears the upper half: no zero-extension */
		__asm__("andnl %2, %k1, %k0"
			: "=r"(index)
			: "r"((uint64_t)~((1u << SHIFT_DOMAIN_BITS) - 1)), "m"(*(const struct shift_quad *)p));
	} else {
		uint32_t load;
		memcpy(&load, p, 4);
		index = load & ((1u << SHIFT_DOMAIN_BITS) - 1);
	}
	return _mm_cvtsi32_si128((int)reach[index]);
}

/* Eight positions: the reach of the pair ending at p + 1 + j shifted up j
 * bytes, OR-ed with the state; byte q of the result's low half is final,
 * the window ending at p + 1 + q (0xff: rejected); its high half is the
 * next eight positions' state. */
TARGET_SSE2 SIMD_INLINE __m128i shift_eight(const uint32_t *reach, const uint8_t *p, __m128i *state,
					     bool andn)
{
	__m128i a01 = _mm_or_si128(shift_reach(reach, p, andn), _mm_slli_si128(shift_reach(reach, p + 1, andn), 1));
	__m128i a23 = _mm_or_si128(_mm_slli_si128(shift_reach(reach, p + 2, andn), 2),
				   _mm_slli_si128(shift_reach(reach, p + 3, andn), 3));
	__m128i a45 = _mm_or_si128(_mm_slli_si128(shift_reach(reach, p + 4, andn), 4),
				   _mm_slli_si128(shift_reach(reach, p + 5, andn), 5));
	__m128i a67 = _mm_or_si128(_mm_slli_si128(shift_reach(reach, p + 6, andn), 6),
				   _mm_slli_si128(shift_reach(reach, p + 7, andn), 7));
	__m128i a = _mm_or_si128(_mm_or_si128(a01, a23), _mm_or_si128(a45, a67));
	/* the state last: the loop carries one OR and one shift (the compiler
	 * would put it first and carry the whole chain of ORs) */
	__asm__("" : "+x"(a));
	a = _mm_or_si128(a, *state);
	*state = _mm_srli_si128(a, 8);
	return a;
}

/* The windows two results' low halves pass: bit q for a's byte q, bit
 * 8 + q for b's. */
TARGET_SSE2 SIMD_INLINE uint64_t shift_passed(__m128i a, __m128i b)
{
	__m128i both = _mm_unpacklo_epi64(a, b);
	return ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(both, _mm_set1_epi8(-1))) & 0xffffu;
}

/* window_shift_scan's loop, `andn` a constant in each of its two forms. */
TARGET_SSE2 SIMD_INLINE size_t shift_scan(const struct window_shift *ws, const uint8_t *buf, size_t len,
					  size_t pos, uint64_t *mask, bool andn)
{
	*mask = 0;
	if (pos >= len || len - pos < 72)
		return pos;
	const uint32_t *reach = ws->reach;
	uint32_t width = ws->width;
	/* the state before the window at pos ends: the pairs ending t bytes
	 * before that, down t lanes (their lanes below t were windows that
	 * start before pos) */
	uint32_t carry = 0;
	for (uint32_t t = 1; t + 1 < width; t++) {
		uint32_t load;
		memcpy(&load, buf + pos + width - 2 - t, 4);
		carry |= reach[load & ((1u << SHIFT_DOMAIN_BITS) - 1)] >> (8 * t);
	}
	__m128i state = _mm_cvtsi32_si128((int)carry);
	for (; len - pos >= 72; pos += 64) {
		/* the pair ending where the window at pos + i ends is at p + i */
		const uint8_t *p = buf + pos + width - 2;
		uint64_t m = 0;
		for (unsigned k = 0; k < 64; k += 16) {
			__m128i a = shift_eight(reach, p + k, &state, andn);
			__m128i b = shift_eight(reach, p + k + 8, &state, andn);
			m |= shift_passed(a, b) << k;
		}
		if (m) {
			*mask = m;
			return pos;
		}
	}
	return pos;
}
TARGET_SSE2 static size_t shift_scan_sse2(const struct window_shift *ws, const uint8_t *buf, size_t len,
					  size_t pos, uint64_t *mask)
{
	return shift_scan(ws, buf, len, pos, mask, false);
}

__attribute__((target("sse2,bmi"))) static size_t shift_scan_bmi1(const struct window_shift *ws,
								   const uint8_t *buf, size_t len,
								   size_t pos, uint64_t *mask)
{
	return shift_scan(ws, buf, len, pos, mask, true);
}

size_t window_shift_scan(const struct window_shift *ws, const uint8_t *buf, size_t len, size_t pos,
			 uint64_t *mask)
{
	return ws->andn ? shift_scan_bmi1(ws, buf, len, pos, mask) : shift_scan_sse2(ws, buf, len, pos, mask);
}
#endif
