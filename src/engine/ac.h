/* SPDX-License-Identifier: MIT */
/* ac.h - the Aho-Corasick engine: many fixed strings, one pass over bytes.
 *
 * Lifecycle in the kwset spirit: ac_new, ac_add (N times), ac_compile,
 * then any number of ac_find / ac_scan_overlapping calls (concurrently if
 * you like: scanning never writes to the automaton and never allocates),
 * and ac_free.  The engine knows bytes, patterns and match offsets; it knows
 * nothing of files, lines, options or output.
 *
 * The engine's public headers, the only ones the layers above include:
 * this one, bits.h (bit tricks), grow.h (the growth rule), table.h (the
 * allocator for large tables and buffers), and for compiled pattern sets
 * ac_file.h (an automaton saved and loaded back), secfile.h (their file
 * container) and hash64.h (its checksum).  The rest of src/engine is its
 * own.
 */
#ifndef ACGREP_AC_H
#define ACGREP_AC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ac_automaton ac_automaton;

enum ac_flags {
	AC_FOLD_ASCII = 1u << 0, /* A-Z and a-z are the same byte */
};

/* How the scan loop skips text while no match is under way. */
enum ac_scan_path {
	AC_PATH_AUTO = 0,   /* chosen at compile time from the pattern set */
	AC_PATH_DFA = 1,    /* no prefilter: step the automaton on every byte */
	AC_PATH_BITMAP = 2, /* 64-byte candidate bitmaps walked with ctz */
	AC_PATH_MEMCHR = 3, /* memchr for a rare byte shared by every pattern */
	AC_PATH_TEDDY = 4,  /* SIMD fingerprint bitmaps (teddy.h), for small sets */
	AC_PATH_HASH = 5,   /* like BITMAP, on a hash of each 3-4 byte window */
	AC_PATH_RARE = 6,   /* SIMD search for 1-3 rare bytes every pattern holds somewhere */
};

/* The vector kernels of the prefilters, the x86 ones narrowest first: what
 * this CPU runs (simd_cpu_level), what a compiled automaton uses
 * (ac_simd_used), and the cap on what ac_compile may choose
 * (ac_limit_simd).  SIMD_NEON is aarch64's and not ordered against the
 * x86 levels: simd_runs says whether this CPU runs a level. */
enum simd_level {
	SIMD_BEST = 0,   /* as a cap only: no cap but the CPU's own (the default) */
	SIMD_SCALAR = 1, /* no vector kernel */
	SIMD_SSSE3 = 2,  /* 16-byte shuffles (Teddy) */
	SIMD_AVX2 = 3,   /* 32-byte shuffles, 8-lane gathers */
	SIMD_AVX512 = 4, /* AVX-512BW: 64-byte shuffles, 16-lane gathers */
	SIMD_NEON = 5,   /* aarch64 Advanced SIMD: 16-byte table lookups (Teddy) */
};

/* Whether this build has vector kernels (SSSE3, AVX2 and AVX-512BW on x86,
 * NEON on little-endian aarch64) with GCC or Clang, unless built with
 * `make SIMD=none`. */
bool simd_built(void);

/* The vector kernels this build has, by name ("SSSE3 AVX2 AVX-512BW AVX-512VBMI" or
 * "NEON"), or NULL when none. */
const char *simd_built_names(void);

/* The widest vector kernel this CPU (and its OS) runs and this build has;
 * SIMD_SCALAR when none. */
enum simd_level simd_cpu_level(void);

/* Whether this CPU has AVX-512 VBMI's byte permutes, beside SIMD_AVX512:
 * the HASH path's sieve kernel.  False where no x86 kernel is built. */
bool simd_cpu_vbmi(void);

/* Whether this CPU's AVX2 gathers are slow enough that the HASH path's
 * stride-1 scan runs the shift-or filter first (window_shift.h): AMD's,
 * microcoded, where it was measured faster.  Intel's keep the gather
 * kernel: pipelined there, and not measured against the filter (the
 * Downfall mitigation slows them on Skylake to Tiger Lake).  False where
 * no x86 kernel is built. */
bool simd_cpu_slow_gathers(void);

/* Whether this CPU has BMI1 (andn): the shift-or filter's kernel loads
 * and masks each index in one instruction.  False where no x86 kernel is
 * built. */
bool simd_cpu_bmi1(void);

/* Whether this CPU runs the kernels of `level` (and this build has them):
 * SIMD_SCALAR always; an x86 level up to simd_cpu_level()'s; SIMD_NEON
 * when that is SIMD_NEON; SIMD_BEST never (a cap, not a kernel). */
bool simd_runs(enum simd_level level);

enum ac_semantics {
	AC_FIRST_END,       /* the match that ends first (fastest) */
	AC_LEFTMOST_LONGEST /* leftmost start, longest there: grep -o */
};

typedef struct {
	size_t start, end; /* buf[start..end) */
	uint32_t pattern;  /* id: index in ac_add order (first of duplicates) */
} ac_match;

/* Returns a new empty automaton, or NULL when out of memory. */
ac_automaton *ac_new(unsigned flags);

/* Adds pattern bytes p[0..len) (len may be 0: the empty pattern matches at
 * every position).  Its id is the number of earlier ac_add calls.
 * Returns 0, or -1 when out of memory.  Precondition: not yet compiled. */
int ac_add(ac_automaton *ac, const void *p, size_t len);

/* Adds `count` patterns laid out as a list, each followed by one separator
 * byte: pattern 0 is text[0..end[0]), pattern k > 0 is
 * text[end[k-1] + 1 .. end[k]).  Takes text and end (both from malloc)
 * without copying them: the automaton frees them, also when this fails.
 * The same as ac_add for each in turn, and the cheap way to add a huge
 * list, but only into an automaton that has no pattern yet.  Returns 0, or
 * -1 when patterns were added before or the list is too large. */
int ac_adopt_list(ac_automaton *ac, void *text, uint32_t *end, size_t count);

/* Lets ac_compile sort a huge set (65,536 patterns and more) and link a
 * huge automaton (65,536 states and more in depths of 4,096 states and
 * more) on up to `threads` threads; it uses two at most, one of them the
 * caller's.  The default, 1, starts none.  Call before ac_compile. */
void ac_set_threads(ac_automaton *ac, unsigned threads);

/* Caps the vector kernels ac_compile may choose at `cap` (SIMD_BEST: no
 * cap; the CPU's own limit applies either way: see ac_simd_used).  For
 * tests and benchmarks; call before ac_compile. */
void ac_limit_simd(ac_automaton *ac, enum simd_level cap);

/* Builds failure links, byte classes, transition tables and the prefilter.
 * `path` forces a scan path (AC_PATH_AUTO to choose); a forced path that
 * cannot serve this pattern set falls back to the nearest one that can (see
 * ac_scan_path_used).  Returns 0, or -1 when out of memory. */
int ac_compile(ac_automaton *ac, enum ac_scan_path path);

/* Finds a match that starts at or after `from` in buf[0..len), under the
 * given semantics.  Returns true and fills *m, or false.  Never allocates. */
bool ac_find(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
	     enum ac_semantics sem, ac_match *m);

typedef int (*ac_match_fn)(const ac_match *m, void *ctx);

/* Calls cb for each match ac_find(AC_LEFTMOST_LONGEST) would return from
 * `from`, then from that match's end (one past it for an empty match), and
 * so on: the non-overlapping leftmost-longest matches, as grep -o prints
 * them.  The prefilter is not restarted between matches, so this is much
 * cheaper than repeated ac_find calls on match-dense text.  A non-zero
 * return from cb stops the scan and is returned; otherwise returns 0. */
int ac_scan_leftmost(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
		     ac_match_fn cb, void *ctx);

/* The number of non-empty matches ac_scan_leftmost reports from `from`:
 * the same scan without a call per match (grep -o's matches counted).
 * Never allocates. */
size_t ac_count_leftmost(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from);

/* Calls cb for every match (overlapping ones too) starting at or after
 * `from`, in order of end position, longest first for equal ends.  Duplicate
 * patterns are reported once.  A non-zero return from cb stops the scan and
 * is returned; otherwise returns 0. */
int ac_scan_overlapping(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from,
			ac_match_fn cb, void *ctx);

/* The number of matches ac_scan_overlapping reports from `from`, counted
 * without a call per match.  Never allocates. */
size_t ac_count_overlapping(const ac_automaton *ac, const uint8_t *buf, size_t len, size_t from);

/* The bytes of memo ac_count_runs wants for len bytes of text: 0 where
 * counting by runs does not apply (a set under AC_LARGE_STATES states, or
 * with a byte in no pattern missing, or with the empty pattern) or does not
 * pay (text under 64 KiB). */
size_t ac_run_memo_bytes(const ac_automaton *ac, size_t len);

/* ac_count_overlapping(ac, buf, len, 0) where `overlapping`, else
 * ac_count_leftmost(ac, buf, len, 0), counted run by run between the bytes
 * in no pattern, with repeated runs counted once (ac_runs.c).  memo:
 * memo_bytes of zeroed memory aligned for uint64_t, memo_bytes as
 * ac_run_memo_bytes gave (any size counts right; a set it gives 0 for, or
 * fewer bytes than one entry, count without the memo).  Writes only the
 * memo; never allocates. */
size_t ac_count_runs(const ac_automaton *ac, const uint8_t *buf, size_t len, bool overlapping,
		     void *memo, size_t memo_bytes);

/* A memo of counted runs kept across calls: one thread's, for one
 * automaton and one `overlapping`, over many short texts (a search's
 * lines).  table: table_bytes of zeroed memory aligned for uint64_t (at
 * most ac_run_memo_bytes(ac, SIZE_MAX) are used); runs, hits and given_up
 * are the give-up rule's state, zero at first and wherever a new input
 * should be judged afresh. */
struct ac_run_memo {
	void *table;
	size_t table_bytes;
	uint32_t runs, hits; /* runs counted in the current window, and hits */
	bool given_up;       /* too few hits: counted without the memo since */
};

/* ac_count_runs with a kept memo: the same count; what the memo learnt
 * and where its give-up window stands carry over to the next call.
 * Writes only *memo and its table; never allocates. */
size_t ac_count_runs_kept(const ac_automaton *ac, const uint8_t *buf, size_t len, bool overlapping,
			  struct ac_run_memo *memo);

/* The id a match of exactly the bytes p[0..len) reports (as the automaton
 * compares bytes: with AC_FOLD_ASCII, ignoring ASCII case): the first
 * pattern added that equals them.  False when no pattern does.  Steps the
 * automaton len times; never allocates.  Precondition: compiled. */
bool ac_pattern_id(const ac_automaton *ac, const void *p, size_t len, uint32_t *id);

/* Facts about a compiled automaton, for tests and benchmarks. */
enum ac_scan_path ac_scan_path_used(const ac_automaton *ac);
/* The vector kernels the prefilter may use (never SIMD_BEST): Teddy's
 * kernel of that level on the TEDDY path; on BITMAP and HASH, gathers at
 * SIMD_AVX2 and SIMD_AVX512, scalar code at the others. */
enum simd_level ac_simd_used(const ac_automaton *ac);
/* How many positions of buf[0..len) the prefilter's 64-byte bitmaps mark
 * (BITMAP, HASH, TEDDY, RARE; before a second look or a reach back): its
 * candidate rate.  0 on the DFA and MEMCHR paths, which have none.  Never
 * allocates. */
size_t ac_candidate_count(const ac_automaton *ac, const uint8_t *buf, size_t len);
size_t ac_state_count(const ac_automaton *ac);
size_t ac_max_pattern_len(const ac_automaton *ac);
size_t ac_memory_bytes(const ac_automaton *ac);
/* How often the two threads linking the automaton met: at most twice per
 * depth they shared (0 on one thread, and for a set whose depths are all
 * narrow, such as one long pattern). */
size_t ac_link_meetings(const ac_automaton *ac);

/* Frees everything; NULL is fine. */
void ac_free(ac_automaton *ac);

#endif
