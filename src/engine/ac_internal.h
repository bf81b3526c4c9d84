/* SPDX-License-Identifier: MIT */
/* ac_internal.h - the compiled automaton's layout, shared by ac_build.c
 * (which fills it) and ac_scan.c and ac_runs.c (which read it).  Not for
 * other modules.
 *
 * States are numbered in breadth-first order, so low ids are shallow and the
 * children of a state have consecutive ids.  The first n_dense states own a
 * full transition row over byte classes (a DFA row, failure transitions
 * already folded in); deeper states are sparse: their children (found by
 * the class of their incoming byte) plus a failure link, followed at scan
 * time until a dense state answers.  When everything fits the budget, every state is dense and
 * the automaton is a plain DFA.  A transition's target carries AC_MATCH_BIT
 * when entering that state completes at least one pattern.
 */
#ifndef ACGREP_AC_INTERNAL_H
#define ACGREP_AC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ac.h"
#include "ac_confirm.h"
#include "teddy.h"
#include "window_hash.h"
#include "window_shift.h"
#include "window_sieve.h"

#define AC_MATCH_BIT 0x80000000u
/* States from which an automaton is large: its sparse states dominate its
 * scans, so ac_compile builds multi_out and the scans step past the bytes
 * in no pattern (class0_skip). */
#define AC_LARGE_STATES 65536u
#define AC_ID_MASK 0x7fffffffu
#define AC_NONE 0xffffffffu
#define AC_ROOT 0u

/* The HASH prefilter's table: 2^AC_WINDOW_BITS bits (32 KiB, an L1
 * cache), indexed by window_hash.h's hash. */
#define AC_WINDOW_BITS 18

/* What prefilter_build sees of the trie while ac_compile runs: views of
 * state tables (ac_trie.h) before they take their final form; not owned,
 * cleared before ac_compile returns. */
struct ac_trie {
	const uint32_t *terminal; /* per state: the pattern id it ends, or AC_NONE */
	const uint8_t *inbyte;    /* byte on the edge from the parent */
	size_t n_nodes;
};

struct ac_automaton {
	unsigned flags;
	bool compiled;
	bool mapped;           /* the state tables point into a compiled file's
				  image (ac_load): never freed here */
	struct ac_trie trie;
	uint8_t *pat_bytes;    /* added patterns back to back, folded, until compiled */
	bool store_adopted;    /* pat_bytes and pat_end came from malloc (ac_adopt_list) */
	size_t pat_used, pat_cap;
	uint32_t *pat_end;     /* per pattern id: offset just past its bytes */
	size_t pat_end_cap;
	uint32_t n_nonempty;   /* ac_add calls with len > 0 */
	uint32_t n_patterns;   /* ac_add calls */
	size_t max_len;
	size_t min_len;        /* shortest non-empty pattern */
	bool has_empty;        /* the empty pattern was added */
	uint32_t empty_id;

	/* compiled form */
	uint8_t cls[256];      /* byte -> class */
	uint32_t n_classes, class_shift; /* rows are 1 << class_shift wide */
	bool class0_skip;      /* the scans step past class 0 (step_to_match_class0):
				  large (AC_LARGE_STATES), and class 0 holds only bytes
				  in no pattern (not so when a set uses all 256 bytes:
				  the 257th class wraps to 0, n_classes is 257) */
	uint32_t n_states, n_dense;
	uint32_t *dense;       /* n_dense rows of targets (id | AC_MATCH_BIT) */
	uint32_t *first;       /* children of s: states first[s] .. first[s+1]-1 */
	uint8_t *in_cls;       /* class of the byte on the edge into each state */
	uint32_t *fail;        /* failure link of each state */
	uint32_t *out_len;     /* longest pattern ending in this state, 0 if none */
	uint32_t *out_id;      /* its id */
	uint32_t *dict;        /* next state down the failure chain that ends a pattern */
	uint32_t *depth_start; /* max_len + 2 entries: the first id of depth d (ids being
				  breadth-first, a state is shallower than d exactly when its
				  id is below depth_start[d]); n_states past the deepest.
				  Built from first[] (ac_depths_build), never mapped */
	uint64_t *multi_out;   /* bit s set when state s reports more than one
				  pattern (dict[] leads to another output): the
				  overlapping scan walks dict[] only for those.
				  n_states bits, cache-resident where dict[] is not.
				  Built by ac_compile from dict[] and out_len, never
				  stored; NULL below AC_LARGE_STATES states (dict[]
				  stays in the caches) and in a loaded automaton (its
				  load stays the checks' one pass: the bitmap would
				  cost as much as the checksum), where every match
				  walks dict[] */

	/* prefilter */
	enum ac_scan_path path;
	bool bits_only;        /* a candidate is the prefilter's next bit, with no
				  second look (ac_path_derive) */
	bool dense_start;      /* Teddy's modelled candidates cost as much as
				  stepping every byte (1-byte fingerprints of a
				  dictionary's first letters): a scan's first
				  dense candidate starts a stretch of stepping
				  (ac_path_derive) */
	enum simd_level simd_cap; /* ac_limit_simd */
	unsigned threads;      /* ac_set_threads: for sorting and linking a huge set */
	uint32_t link_meetings; /* ac_link_meetings */
	enum simd_level simd;  /* the vector kernels in use (Teddy's and the pair gathers) */
	struct teddy teddy;    /* AC_PATH_TEDDY */
	uint64_t pair[1024];   /* bit (b0 << 8 | b1): a match may start with b0 b1 */
	uint64_t window_bits[1u << (AC_WINDOW_BITS - 6)]; /* HASH: bit ac_window_hash(window):
							     a match may start there */
	uint32_t window_width; /* HASH: bytes in a window, 3 or 4 */
	uint32_t window_stride; /* HASH: 1, 2, 4 or 8 (see ac_scan.c's block_mask_hash) */
	bool window_sparse;    /* HASH: few bits set; window_folds summarise them */
	uint32_t window_folds[64]; /* HASH: pair_simd.h's window_folds of window_bits,
				      when sparse and not sieved (ac_window_kernel_derive) */
	uint32_t window_mask;  /* HASH: the window's bytes within a 32-bit load */
	uint32_t window_fold;  /* HASH: 0x20 in those bytes under AC_FOLD_ASCII, else 0 */
	bool window_sieved;    /* HASH: the VBMI kernel runs window_sieve first
				  (ac_window_kernel_derive) */
	struct window_sieve window_sieve;
	struct ac_confirm *confirm; /* HASH: candidates confirmed by comparing
				       patterns, or NULL: by stepping (ac_confirm.h) */
	struct shift_cell *shift_cell; /* HASH: where the shift-or filter a stride-1
					  scan runs first is built, or NULL where
					  none runs (ac_window_kernel_derive) */
	uint8_t first_byte[256]; /* 1 if a match may start with this byte */
	uint32_t rare_offset;  /* memchr path: the byte every match has at this offset */
	uint8_t rare_byte;
	/* RARE path: every match holds one of rare_set[0..n_rare) (the unused
	 * slots repeat the first) at most rare_reach bytes after its start */
	uint8_t rare_set[3];
	uint32_t n_rare, rare_reach;
	/* RARE path, 256-bit sets: the bytes found just before and just after
	 * a rare-set byte in some pattern, all of them where one begins or
	 * ends a pattern (rare_set_pick); empty on another path */
	uint64_t rare_before[4], rare_after[4];
	/* RARE path, 256-bit set: the bytes some pattern holds before its first
	 * rare-set byte: a match ending past a candidate starts after the last
	 * byte before it that is not one (next_candidate); empty on another
	 * path */
	uint64_t rare_lead[4];
	/* RARE path: window_bits holds the windows around a rare-set byte that
	 * patterns hold (rare_window.c); false when that test is off */
	bool rare_windowed;
	size_t memory;
};

/* Fills ac->depth_start from first[] and max_len (after ac_compile's
 * tables are built or ac_load's are checked): 0, or -1 when out of memory. */
int ac_depths_build(ac_automaton *ac);

/* The HASH prefilter's index of the window whose 4-byte load is `load`
 * (window_hash.h), AC_WINDOW_BITS bits. */
static inline unsigned ac_window_hash(uint32_t load, uint32_t mask, uint32_t fold)
{
	return ac_mask_hash(load, mask, fold, AC_WINDOW_BITS);
}

/* 1 when the window whose 4-byte load is `load` has its bit set in the
 * hashed-window table `bits` (2^AC_WINDOW_BITS bits), else 0. */
static inline uint64_t ac_window_bit(const uint64_t *bits, uint32_t load, uint32_t mask, uint32_t fold)
{
	unsigned h = ac_window_hash(load, mask, fold);
	return (bits[h >> 6] >> (h & 63)) & 1;
}

/* The RARE path's window around a rare-set byte: the two bytes before it
 * and the two after, as one word (the same on any byte order). */
static inline uint32_t ac_rare_window_key(unsigned b2, unsigned b1, unsigned a1, unsigned a2)
{
	return b2 | b1 << 8 | a1 << 16 | (uint32_t)a2 << 24;
}

/* Whether a pattern's rare-set byte may be the one at c of buf[0..len):
 * where the window test is on and c has two bytes each side, the window
 * around it is one some pattern holds (hashed: others pass too). */
static inline bool ac_rare_window_fits(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t c)
{
	if (!ac->rare_windowed || c < 2 || len - c < 3)
		return true;
	uint32_t key = ac_rare_window_key(buf[c - 2], buf[c - 1], buf[c + 1], buf[c + 2]);
	return ac_window_bit(ac->window_bits, key, UINT32_MAX, ac->window_fold);
}

/* Fills window_bits, zero until then, with the RARE path's windows
 * (rare_window.c) and sets rare_windowed to whether the test is on: off
 * (the table zero again) when patterns leave too many windows open.  After
 * rare_set and the trie are final. */
void ac_rare_window_fill(ac_automaton *ac);

/* The vector kernels allowed by the CPU and by the cap `cap`
 * (ac_limit_simd's): the cap when this CPU runs it, else the CPU's widest
 * (for SIMD_BEST, a level above the CPU's, or one of the other
 * architecture). */
enum simd_level ac_simd_allowed(enum simd_level cap);

/* Chooses the scan path (`want` unless it cannot serve this set) and fills
 * the prefilter tables, from the trie, first[] and classes (ac_prefilter.c). */
void ac_prefilter_build(ac_automaton *ac, enum ac_scan_path want);

/* What the scan derives from the path, once (not per scan): bits_only and
 * dense_start.  After the path, window_width and Teddy's tables are
 * chosen or loaded. */
void ac_path_derive(ac_automaton *ac);

/* ac->class0_skip's rule, for ac_compile's classes and ac_load's alike:
 * large, and class 0 holds only bytes in no pattern (257 classes wrap the
 * last one to 0). */
static inline bool ac_class0_skip(uint32_t n_classes, uint32_t n_states)
{
	return n_classes <= 256 && n_states >= AC_LARGE_STATES;
}

/* Whether byte b is in the 256-bit set `set`. */
static inline bool ac_byte_in(const uint64_t set[4], uint8_t b)
{
	return (set[b >> 6] >> (b & 63)) & 1;
}

/* Adds byte b to the 256-bit set `set`. */
static inline void ac_byte_add(uint64_t set[4], uint8_t b)
{
	set[b >> 6] |= UINT64_C(1) << (b & 63);
}

/* What the HASH scan derives from a loaded window_bits: window_sparse,
 * which a compile sets as it fills the table. */
void ac_window_derive(ac_automaton *ac);

/* The byte-rank model's table (ac_rank.c): each byte's rank by its
 * frequency in typical text, 0 the rarest, 255 the most common (space);
 * ac_byte_rank(b) is its entry for b. */
extern const uint8_t ac_rank_table[256];
static inline uint8_t ac_byte_rank(uint8_t b)
{
	return ac_rank_table[b];
}

/* The expected share of text bytes that are b, by the byte-rank model
 * the scan-path costs use; ac_set_freq: that of the bytes in a 256-bit
 * set (ac_byte_in), at most 1. */
double ac_byte_freq(uint8_t b);
double ac_set_freq(const uint64_t set[4]);

/* The expected share of text positions that are Teddy's candidates, by
 * that model: where a bucket admits every byte of the fingerprint, the
 * bytes taken as independent, summed over the buckets. */
double ac_teddy_share(const struct teddy *t);

/* Fills *s with the bucket sieve of the set's window_width-byte prefixes
 * (window_sieve.c), from first[], in_cls and cls; false when they are more
 * than SIEVE_MAX_PREFIXES. */
bool ac_sieve_build(const ac_automaton *ac, struct window_sieve *s);

/* Fills *ws with the shift-or filter of the set's window_width-byte
 * prefixes (window_shift.c), from first[], in_cls and cls; false when out
 * of memory or the width is not 3 or 4.  ws->reach is then malloc'd. */
bool ac_shift_build(const ac_automaton *ac, struct window_shift *ws);

/* The set's shift-or filter (ac->shift_cell not NULL), built by the first
 * call: threads may race to build it, one build is kept and the others
 * freed.  NULL when it is declined (too many windows would pass it,
 * SHIFT_MAX_SHARE, or no memory): the scan then runs without it. */
const struct window_shift *ac_window_shift(const ac_automaton *ac);

/* Frees ac->shift_cell with its filter, and sets it NULL. */
void ac_shift_free(ac_automaton *ac);

/* The hashed-window kernels' own tables, for the kernel the scan will
 * run: at stride 1 with a sparse table, the sieve (window_sieved) on a
 * CPU with AVX-512 VBMI when its kernels are allowed and the set fits,
 * else the folds of the sparse kernel (AVX-512); at stride 1 on SSSE3,
 * and on AVX2 where gathers are slow, the shift-or filter's cell; on the
 * Teddy path, teddy.window where its AVX-512 kernel gives the second
 * look itself.  After the path, the table and the state tables are built
 * or loaded (window_sieve.c). */
void ac_window_kernel_derive(ac_automaton *ac);

/* From pos in steps of 64, the first block with a BITMAP or HASH
 * candidate (ac->path): returns its start with its candidates in *mask,
 * or returns len (ac_blocks.c). */
size_t ac_pair_next_block(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
			  uint64_t *mask);

/* From pos in steps of 64, the first block holding a byte of the RARE
 * path's rare_set: returns its start with those bytes in *mask, or
 * returns len (ac_blocks.c). */
size_t ac_rare_next_block(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t pos,
			  uint64_t *mask);

/* ac_count_leftmost (overlap false) or ac_count_overlapping (true) of
 * buf[from..len), stepping every byte without asking the prefilter: for a
 * span of bytes that are all in patterns (ac_runs.c's runs), where every
 * byte is a candidate.  Never allocates. */
size_t ac_count_stepped(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
			bool overlap);

#endif
