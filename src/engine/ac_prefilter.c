/* SPDX-License-Identifier: MIT */
/* ac_prefilter.c - choosing how the scan skips text that cannot start a
 * match, and building the tables for that choice.
 *
 * Owns: the scan-path decision (by estimated instructions per byte of
 * text, from ac_rank.c's byte-frequency model) and the prefilter tables
 * of struct ac_automaton: the 2-byte pair bitmap (any set), the rare byte for
 * memchr (one distinct pattern), the rare-byte set (every pattern holds
 * one of 1-3 rare bytes) and the Teddy fingerprint buckets (small sets, on
 * CPUs with byte shuffles).  Reads the compiled trie; knows nothing of
 * files, lines or options.
 *
 * References: B. Commentz-Walter, "A string matching algorithm fast on the
 * average", ICALP 1979, and S. Wu and U. Manber, "A fast algorithm for
 * multi-pattern searching", TR-94-17, 1994 - skipping text that cannot
 * start a match, done here with fingerprints instead of shifts; Hyperscan's
 * Teddy and FDR (see teddy.h and ac_scan.c).
 */
#include "ac_internal.h"
#include "bits.h"
#include "pair_simd.h"

#include <stdlib.h>
#include <string.h>

/* Teddy serves sets with at most this many distinct fingerprints; past it
 * the 8 buckets fill up and the pair bitmap rejects more. */
#define TEDDY_MAX_FINGERPRINTS 64
/* The hashed-window bitmap serves sets with at most this many distinct 3-4
 * byte prefixes (at most 1/32 of its bits set); past it, like the pair
 * bitmap, it passes too much to pay and dense stepping takes over. */
#define HASH_MAX_WINDOWS 8192
/* The HASH prefilter looks up every stride-th window, up to this stride. */
#define HASH_STRIDE_MAX 8
/* A HASH table with at most this many bits set is summarised in two
 * 1,024-bit tables the AVX-512 kernel holds in registers (window_folds):
 * each passes about 1 in 10 windows, both about 1 in 100. */
#define HASH_SPARSE_BITS 128
/* The scan-path costs, in instructions per byte of text, measured with
 * cachegrind over Debian changelogs (docs/perf.md "Choosing the scan
 * path"): looking at a byte with the RARE kernels (vector, scalar) and
 * Teddy's; confirming one candidate (next_bit, next_candidate); a RARE
 * candidate, most often alone in its block, with the kernel call that
 * found it and the neighbour test (71-106 measured over the URL and path
 * sets of scripts/perf/rare.sh); one automaton step (the DFA's loop;
 * 20-22 in a confirmation), which is also what any path costs at most
 * (past AC_DENSE_RUN close candidates the scan loop steps every byte).
 * HASH costs 3 with no candidate and 4-16 with the windows of real text:
 * HASH_COST is what RARE must beat where Teddy cannot serve; BITMAP, for
 * sets too short for HASH's windows, costs as much as stepping. */
#define RARE_SCAN_COST 0.5
#define RARE_SCAN_COST_SCALAR 4.2
#define TEDDY_SCAN_COST 0.6
#define CANDIDATE_COST 20.0
#define RARE_CANDIDATE_COST 80.0
#define STEP_COST 16.0
#define HASH_COST 4.5
/* The steps a confirmation takes past a rare byte before the automaton is
 * back at its start, and at a Teddy candidate. */
#define RARE_TAIL_STEPS 2
#define TEDDY_CANDIDATE_STEPS 2
/* Which byte has which rank varies between kinds of text (':' is 4 times
 * as common in logs as in prose): RARE_FREQ_MARGIN is that doubt, held
 * against the RARE set, whose cost grows with its bytes' frequency where
 * Teddy's fingerprints of 1-3 bytes average it out. */
#define RARE_FREQ_MARGIN 2.0
#define RARE_NONE 256          /* no byte: a pattern with none allowed */
#define RARE_FAR UINT32_MAX    /* no byte of the set yet on the path */

static bool is_ascii_letter(uint8_t b)
{
	uint8_t lower = b | 0x20;
	return lower >= 'a' && lower <= 'z';
}

/* Marks b0 (and its other case when folding) followed by b1 (any byte when
 * b1 < 0) as a possible start of a match in the pair bitmap. */
static void mark_start(ac_automaton *ac, uint8_t b0, int b1)
{
	uint8_t v0[2] = { b0, b0 }, v1[2];
	if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter(b0))
		v0[1] = (uint8_t)(b0 ^ 0x20);
	for (int i = 0; i < 2; i++) {
		ac->first_byte[v0[i]] = 1;
		if (b1 < 0) {
			for (int x = 0; x < 4; x++)
				ac->pair[v0[i] * 4 + x] = ~UINT64_C(0);
			continue;
		}
		v1[0] = v1[1] = (uint8_t)b1;
		if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter((uint8_t)b1))
			v1[1] = (uint8_t)(b1 ^ 0x20);
		for (int j = 0; j < 2; j++) {
			unsigned idx = (unsigned)v0[i] << 8 | v1[j];
			ac->pair[idx >> 6] |= UINT64_C(1) << (idx & 63);
		}
	}
}

static void pair_build(ac_automaton *ac)
{
	const struct ac_trie *t = &ac->trie;
	const uint32_t *first = ac->first;
	memset(ac->pair, 0, sizeof ac->pair);
	memset(ac->first_byte, 0, sizeof ac->first_byte);
	for (uint32_t c = first[AC_ROOT]; c < first[AC_ROOT + 1]; c++) {
		if (t->terminal[c] != AC_NONE)
			mark_start(ac, t->inbyte[c], -1);
		for (uint32_t g = first[c]; g < first[c + 1]; g++)
			mark_start(ac, t->inbyte[c], t->inbyte[g]);
	}
}

/* The one distinct pattern's bytes when the trie is a single chain (at most
 * max of them), else 0. */
static size_t chain_bytes(const ac_automaton *ac, uint8_t *out, size_t max)
{
	const struct ac_trie *t = &ac->trie;
	if (t->n_nodes < 2 || t->n_nodes - 1 != ac->max_len)
		return 0;
	size_t n = 0;
	for (uint32_t node = ac->first[AC_ROOT]; n < max && node < t->n_nodes; node = ac->first[node]) {
		out[n++] = t->inbyte[node];
		if (ac->first[node] == ac->first[node + 1])
			break;
	}
	return n;
}

/* memchr needs one byte at a fixed offset in every match, and no letter
 * when folding: returns whether the chain has one (then sets rare_*). */
static bool rare_byte_pick(ac_automaton *ac, const uint8_t *chain, size_t n)
{
	bool found = false;
	for (size_t off = 0; off < n && off < ac->min_len; off++) {
		uint8_t b = chain[off];
		if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter(b))
			continue;
		if (!found || ac_byte_rank(b) < ac_byte_rank(ac->rare_byte)) {
			found = true;
			ac->rare_byte = b;
			ac->rare_offset = (uint32_t)off;
		}
	}
	return found;
}

/* Whether byte b may be in the RARE set: never a letter when folding;
 * chosen by the set itself (not forced), not an ASCII digit (logs are
 * full of digits, which the rank table, from prose and code, ranks rarer
 * than they are there).  How rare is rare enough is rare_cost's. */
static bool rare_set_allows(const ac_automaton *ac, uint8_t b, bool forced)
{
	if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter(b))
		return false;
	return forced || !(b >= '0' && b <= '9');
}

/* Adds b to set[0..*n) unless there: false when it would be a fourth. */
static bool rare_set_add(uint8_t set[3], uint32_t *n, uint8_t b)
{
	for (uint32_t i = 0; i < *n; i++)
		if (set[i] == b)
			return true;
	if (*n == 3)
		return false;
	set[(*n)++] = b;
	return true;
}

/* The bytes that may be in every pattern: the allowed bytes of one
 * pattern (the first child's path down to a pattern's end), the first 64
 * distinct.  slot[b] is 1 + b's index in cand, or 0; returns the count. */
static unsigned common_candidates(const ac_automaton *ac, bool forced, uint8_t cand[64],
				  uint8_t slot[256])
{
	const struct ac_trie *t = &ac->trie;
	unsigned n = 0;
	memset(slot, 0, 256);
	for (uint32_t c = ac->first[AC_ROOT]; c < t->n_nodes; c = ac->first[c]) {
		uint8_t b = t->inbyte[c];
		if (n < 64 && !slot[b] && rare_set_allows(ac, b, forced)) {
			cand[n++] = b;
			slot[b] = (uint8_t)n;
		}
		if (t->terminal[c] != AC_NONE)
			break;
	}
	return n;
}

/* The RARE prefilter's set: the rarest allowed byte every pattern holds
 * (of common_candidates'); failing that, each pattern's rarest allowed
 * byte, at most three distinct.  One pass over the trie in breadth-first
 * order, each state knowing the rarest allowed byte on its path and which
 * candidates it holds; a pattern without an allowed byte, or a fourth
 * distinct one once no candidate is in every pattern, ends it early.
 * Returns the count (0: none) and fills set. */
static uint32_t rare_set_choose(ac_automaton *ac, bool forced, uint8_t set[3])
{
	const struct ac_trie *t = &ac->trie;
	uint8_t cand[64], slot[256];
	unsigned n_cand = common_candidates(ac, forced, cand, slot);
	uint16_t *best = malloc(t->n_nodes * sizeof *best);
	uint64_t *held = malloc(t->n_nodes * sizeof *held), in_all = ~UINT64_C(0);
	uint32_t n_set = 0;
	bool each = best && held, few = true; /* each pattern has one; at most three */
	if (each) {
		best[AC_ROOT] = RARE_NONE;
		held[AC_ROOT] = 0;
	}
	/* until a pattern has no allowed byte, or neither kind of set is left */
	for (uint32_t s = 0; each && (few || in_all) && s < t->n_nodes; s++) /* parents first */
		for (uint32_t c = ac->first[s]; each && c < ac->first[s + 1]; c++) {
			uint8_t b = t->inbyte[c];
			best[c] = best[s];
			held[c] = held[s] | (slot[b] ? UINT64_C(1) << (slot[b] - 1) : 0);
			if (rare_set_allows(ac, b, forced) &&
			    (best[c] == RARE_NONE || ac_byte_rank(b) < ac_byte_rank(best[c])))
				best[c] = b;
			if (t->terminal[c] != AC_NONE) {
				each = best[c] != RARE_NONE;
				few = few && each && rare_set_add(set, &n_set, (uint8_t)best[c]);
				in_all &= held[c];
			}
		}
	free(best);
	free(held);
	if (!each || !(few || in_all))
		return 0;
	int every = -1;
	for (unsigned i = 0; i < n_cand; i++)
		if ((in_all >> i & 1) && (every < 0 || ac_byte_rank(cand[i]) < ac_byte_rank(every)))
			every = cand[i];
	if (every >= 0) {
		set[0] = (uint8_t)every;
		return 1;
	}
	return few ? n_set : 0;
}

/* The bytes next to the rare set's in the patterns (rare_set_pick). */
struct neighbours {
	uint64_t before[4], after[4];
	bool any_before, any_after; /* a pattern begins, or ends, with one */
};

/* Adds trie byte b to the 256-bit set, both cases where the set folds
 * ASCII (the trie's bytes are folded). */
static void neighbour_add(const ac_automaton *ac, uint64_t set[4], uint8_t b)
{
	ac_byte_add(set, b);
	if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter(b))
		ac_byte_add(set, b ^ 0x20);
}

/* Trie state c, entered from s on a byte of the rare set: the bytes
 * around it.  Kept out of rare_set_pick's loop over every edge, which
 * inlined it ran a fifth slower. */
#ifdef __GNUC__
__attribute__((noinline))
#endif
static void neighbours_add(const ac_automaton *ac, struct neighbours *nb, uint32_t s, uint32_t c)
{
	const struct ac_trie *t = &ac->trie;
	if (s == AC_ROOT)
		nb->any_before = true;
	else
		neighbour_add(ac, nb->before, t->inbyte[s]);
	nb->any_after |= t->terminal[c] != AC_NONE;
	for (uint32_t k = ac->first[c]; k < ac->first[c + 1]; k++)
		neighbour_add(ac, nb->after, t->inbyte[k]);
}

/* Chooses the RARE set (rare_set_choose) and rare_reach, the furthest any
 * pattern's first byte of the set lies from its start.  Returns whether
 * the set has one (then sets rare_*).  Temporary memory: 10 bytes a trie
 * state. */
static bool rare_set_pick(ac_automaton *ac, bool forced)
{
	const struct ac_trie *t = &ac->trie;
	uint8_t set[3];
	uint32_t n_set = t->n_nodes > 1 ? rare_set_choose(ac, forced, set) : 0;
	uint32_t *depth = n_set ? malloc(t->n_nodes * sizeof *depth) : NULL;
	uint32_t *first_rare = depth ? malloc(t->n_nodes * sizeof *first_rare) : NULL;
	if (!first_rare) {
		free(depth);
		return false;
	}
	uint32_t reach = 0;
	depth[AC_ROOT] = 0;
	first_rare[AC_ROOT] = RARE_FAR;
	struct neighbours nb = { .any_before = false };
	bool lead[256] = { false };
	for (uint32_t s = 0; s < t->n_nodes; s++)
		for (uint32_t c = ac->first[s]; c < ac->first[s + 1]; c++) {
			uint8_t b = t->inbyte[c];
			bool in = b == set[0] || (n_set > 1 && b == set[1]) || (n_set > 2 && b == set[2]);
			depth[c] = depth[s] + 1;
			first_rare[c] = first_rare[s] != RARE_FAR ? first_rare[s] : in ? depth[s] : RARE_FAR;
			if (t->terminal[c] != AC_NONE && first_rare[c] > reach)
				reach = first_rare[c];
			if (in)
				neighbours_add(ac, &nb, s, c);
			lead[b] |= first_rare[c] == RARE_FAR;
		}
	for (unsigned i = 0; i < 4; i++) {
		ac->rare_before[i] = nb.any_before ? ~UINT64_C(0) : nb.before[i];
		ac->rare_after[i] = nb.any_after ? ~UINT64_C(0) : nb.after[i];
	}
	memset(ac->rare_lead, 0, sizeof ac->rare_lead);
	for (unsigned b = 0; b < 256; b++)
		if (lead[b])
			neighbour_add(ac, ac->rare_lead, (uint8_t)b);
	ac->n_rare = n_set;
	ac->rare_reach = reach;
	for (uint32_t i = 0; i < 3; i++)
		ac->rare_set[i] = set[i < n_set ? i : 0];
	free(depth);
	free(first_rare);
	return true;
}

/* A path's cost per byte: looking at every byte, then confirming the
 * candidates, a share `candidates` of the bytes, each `steps` steps; never
 * more than stepping every byte. */
static double path_cost(double look, double candidates, double steps)
{
	double cost = look + candidates * (CANDIDATE_COST + STEP_COST * steps);
	return cost < STEP_COST ? cost : STEP_COST;
}

/* The RARE path's cost per byte: a candidate at each byte of the set
 * (RARE_FREQ_MARGIN times as common as ac_byte_freq says), which the
 * neighbour test passes when the bytes on both sides may be there
 * (rare_before, rare_after); one that passes is stepped from the start of
 * the run of lead bytes before it (rare_lead: p / (1 - p) bytes expected
 * for a share p of them), at most rare_reach bytes, and never back past
 * the previous candidate. */
static double rare_cost(const ac_automaton *ac)
{
	double share = 0;
	for (uint32_t i = 0; i < ac->n_rare; i++)
		share += ac_byte_freq(ac->rare_set[i]);
	share = share * RARE_FREQ_MARGIN < 1 ? share * RARE_FREQ_MARGIN : 1;
	double passed = ac_set_freq(ac->rare_before) * ac_set_freq(ac->rare_after);
	double lead = ac_set_freq(ac->rare_lead);
	double steps = ac->rare_reach;
	if (lead < 1 && steps > lead / (1 - lead))
		steps = lead / (1 - lead);
	if (share > 0 && steps > 1 / share)
		steps = 1 / share;
	bool vector = SIMD_X86 && ac->simd != SIMD_SCALAR; /* rare_scan_sse2/avx2 */
	double cost = (vector ? RARE_SCAN_COST : RARE_SCAN_COST_SCALAR) +
		      share * (RARE_CANDIDATE_COST + passed * STEP_COST * (steps + RARE_TAIL_STEPS));
	return cost < STEP_COST ? cost : STEP_COST;
}

double ac_teddy_share(const struct teddy *t)
{
	double admitted[TEDDY_MAX_WIDTH][TEDDY_BUCKETS] = { { 0 } };
	for (uint32_t j = 0; j < t->width; j++)
		for (unsigned b = 0; b < 256; b++)
			for (unsigned v = t->lo[j][b & 15] & t->hi[j][b >> 4]; v; v &= v - 1)
				admitted[j][ctz64(v)] += ac_byte_freq((uint8_t)b);
	double share = 0;
	for (unsigned k = 0; k < TEDDY_BUCKETS; k++) {
		double bucket = 1;
		for (uint32_t j = 0; j < t->width; j++)
			bucket *= admitted[j][k];
		share += bucket;
	}
	return share < 1 ? share : 1;
}

/* Teddy's cost per byte: a candidate at ac_teddy_share of the bytes. */
static double teddy_cost(const struct teddy *t)
{
	return path_cost(TEDDY_SCAN_COST, ac_teddy_share(t), TEDDY_CANDIDATE_STEPS);
}

/* Appends the distinct `width`-byte prefixes below `node` (at `depth`) to
 * fp in sorted order; false once there would be more than max. */
static bool prefixes_collect(const ac_automaton *ac, uint32_t node, uint32_t depth,
			     uint32_t width, uint8_t *path, uint8_t *fp, size_t *n, size_t max)
{
	if (depth == width) {
		if (*n == max)
			return false;
		memcpy(fp + *n * width, path, width);
		++*n;
		return true;
	}
	for (uint32_t c = ac->first[node]; c < ac->first[node + 1]; c++) {
		path[depth] = ac->trie.inbyte[c];
		if (!prefixes_collect(ac, c, depth + 1, width, path, fp, n, max))
			return false;
	}
	return true;
}

/* Fills ac->teddy if the set suits it; returns whether it does. */
static bool teddy_pick(ac_automaton *ac, const uint8_t *chain, size_t chain_len,
		       enum simd_level level)
{
	uint32_t width = ac->min_len < TEDDY_MAX_WIDTH ? (uint32_t)ac->min_len : TEDDY_MAX_WIDTH;
	bool fold = ac->flags & AC_FOLD_ASCII;
	if (width == 0)
		return false;
	if (chain_len >= ac->min_len) { /* one pattern: its rarest window */
		uint32_t best = 0, best_cost = UINT32_MAX;
		for (uint32_t off = 0; off + width <= ac->min_len; off++) {
			uint32_t cost = 0;
			for (uint32_t j = 0; j < width; j++)
				cost += ac_byte_rank(chain[off + j]) + (fold && is_ascii_letter(chain[off + j]) ? 16 : 0);
			if (cost < best_cost) {
				best_cost = cost;
				best = off;
			}
		}
		teddy_build(&ac->teddy, chain + best, 1, width, best, fold, level);
		return true;
	}
	uint8_t fp[TEDDY_MAX_FINGERPRINTS * TEDDY_MAX_WIDTH], path[TEDDY_MAX_WIDTH];
	size_t n = 0;
	if (!prefixes_collect(ac, AC_ROOT, 0, width, path, fp, &n, TEDDY_MAX_FINGERPRINTS))
		return false;
	teddy_build(&ac->teddy, fp, n, width, 0, fold, level);
	return true;
}

/* Sets the HASH table's bit of the window at `w` (window_width bytes);
 * returns 1 when it was not set before. */
static size_t window_mark(ac_automaton *ac, const uint8_t *w)
{
	uint32_t load = 0;
	memcpy(&load, w, ac->window_width);
	unsigned h = ac_window_hash(load, ac->window_mask, ac->window_fold);
	uint64_t bit = UINT64_C(1) << (h & 63), was = ac->window_bits[h >> 6];
	ac->window_bits[h >> 6] = was | bit;
	return !(was & bit);
}

/* Fills the HASH prefilter's table, zero until then (ac_new; one fill a
 * compile): the windows at offsets 0 .. stride-1 of the distinct
 * (width + stride - 1)-byte prefixes, when they number at most
 * HASH_MAX_WINDOWS; returns whether it did, and sets window_sparse. */
static bool hash_fill(ac_automaton *ac, uint32_t width, uint32_t stride)
{
	uint8_t fp[HASH_MAX_WINDOWS * 4]; /* 32 KiB: n * plen <= 8192 / stride * (stride + 3) */
	uint8_t path[4 + HASH_STRIDE_MAX - 1];
	uint32_t plen = width + stride - 1;
	size_t n = 0, set = 0;
	if (!prefixes_collect(ac, AC_ROOT, 0, plen, path, fp, &n, HASH_MAX_WINDOWS / stride))
		return false;
	for (size_t i = 0; i < n; i++)
		for (uint32_t off = 0; off < stride; off++)
			set += window_mark(ac, fp + i * plen + off);
	ac->window_sparse = set <= HASH_SPARSE_BITS;
	return true;
}

/* Chooses the HASH prefilter's window (3 or 4 bytes) and stride (the
 * largest power of two up to max_stride that the shortest pattern leaves
 * room for and the table holds) and fills its table; returns whether the
 * set suits it. */
static bool hash_pick(ac_automaton *ac, uint32_t max_stride)
{
	uint32_t width = ac->min_len >= 4 ? 4 : 3;
	uint8_t mask_bytes[4] = { 0xff, 0xff, 0xff, 0xff }, fold_bytes[4] = { 0 };
	if (ac->min_len < 3)
		return false;
	ac->window_width = width;
	if (width == 3)
		mask_bytes[3] = 0;
	if (ac->flags & AC_FOLD_ASCII)
		memset(fold_bytes, 0x20, width);
	memcpy(&ac->window_mask, mask_bytes, 4);
	memcpy(&ac->window_fold, fold_bytes, 4);
	uint32_t stride = max_stride;
	while (stride > 1 && stride + width - 1 > ac->min_len)
		stride /= 2;
	for (; stride >= 1; stride /= 2) {
		ac->window_stride = stride;
		if (hash_fill(ac, width, stride))
			return true;
	}
	return false;
}

void ac_window_derive(ac_automaton *ac)
{
	size_t set = 0;
	const uint64_t *t = ac->window_bits;
	for (size_t line = 0; line < sizeof ac->window_bits / sizeof *t && set <= HASH_SPARSE_BITS; line += 8) {
		if (window_line_empty(t + line))
			continue;
		for (size_t w = line; w < line + 8; w++)
			for (uint64_t bits = t[w]; bits; bits &= bits - 1)
				set++;
	}
	ac->window_sparse = set <= HASH_SPARSE_BITS;
}

void ac_path_derive(ac_automaton *ac)
{
	ac->bits_only = ac->path == AC_PATH_BITMAP || ac->path == AC_PATH_HASH ||
			(ac->path == AC_PATH_TEDDY && !ac->window_width);
	ac->dense_start = ac->path == AC_PATH_TEDDY && teddy_cost(&ac->teddy) >= STEP_COST;
}

enum simd_level ac_simd_allowed(enum simd_level cap)
{
	return simd_runs(cap) ? cap : simd_cpu_level();
}

void ac_prefilter_build(ac_automaton *ac, enum ac_scan_path want)
{
	uint8_t chain[256];
	size_t chain_len = chain_bytes(ac, chain, sizeof chain);
	enum simd_level level = ac_simd_allowed(ac->simd_cap);
	ac->simd = level;
	pair_build(ac);
	bool rare = rare_byte_pick(ac, chain, chain_len);
	bool teddy = want == AC_PATH_TEDDY || (want == AC_PATH_AUTO && level > SIMD_SCALAR);
	teddy = teddy && teddy_pick(ac, chain, chain_len, level);
	bool rare_set = (want == AC_PATH_AUTO || want == AC_PATH_RARE) && rare_set_pick(ac, want == AC_PATH_RARE);
	if (rare_set && want == AC_PATH_AUTO) { /* the cheapest of RARE, Teddy and HASH or BITMAP */
		double other = teddy ? teddy_cost(&ac->teddy) : ac->min_len >= 3 ? HASH_COST : STEP_COST;
		rare_set = rare_cost(ac) < other;
	}
	if (teddy && !rare_set) {
		ac->path = AC_PATH_TEDDY;
		/* the second look at Teddy's candidates: each start's own window,
		 * unless the exact form's fingerprint is that window already */
		const struct teddy *t = &ac->teddy;
		if (!hash_pick(ac, 1) || (t->exact.on && t->offset == 0 && t->width >= ac->window_width))
			ac->window_width = 0;
	} else if ((want == AC_PATH_AUTO || want == AC_PATH_TEDDY) && rare) {
		ac->path = AC_PATH_MEMCHR;
	} else if (rare_set) {
		ac->path = AC_PATH_RARE;
		ac_rare_window_fill(ac);
	} else if (want == AC_PATH_AUTO || want == AC_PATH_TEDDY || want == AC_PATH_HASH) {
		ac->path = hash_pick(ac, HASH_STRIDE_MAX) ? AC_PATH_HASH : AC_PATH_BITMAP;
	} else {
		ac->path = (want == AC_PATH_MEMCHR && !rare) || want == AC_PATH_RARE ? AC_PATH_BITMAP : want;
	}
	if (ac->trie.n_nodes == 1) /* only empty patterns, or none: nothing to skip to */
		ac->path = AC_PATH_DFA;
	if (ac->path != AC_PATH_RARE) {
		memset(ac->rare_before, 0, sizeof ac->rare_before);
		memset(ac->rare_after, 0, sizeof ac->rare_after);
		memset(ac->rare_lead, 0, sizeof ac->rare_lead);
		ac->rare_windowed = false;
	}
	ac_path_derive(ac);
}
