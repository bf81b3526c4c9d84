/* SPDX-License-Identifier: MIT */
/* test_teddy.c - the Teddy kernels against the scalar one and against the
 * definition: SSSE3, AVX2 and AVX-512BW on x86, NEON on aarch64 (run
 * under qemu-user by `make ARCH=aarch64 cross-unit`).
 *
 * For random fingerprint sets (1 to 64 fingerprints, so buckets are shared;
 * widths 1-3; offsets 0-4; with and without folding) and random texts up
 * to 300 bytes, every vector kernel this CPU runs must return the same
 * block and candidate mask as the scalar kernel from every start position
 * (so reads stop exactly at the buffer's end: the text ends exactly at an
 * inaccessible page, or starts exactly after one), and every real
 * fingerprint occurrence must be a candidate.  The AVX-512 kernel with a
 * second look (a random hashed-window table, as AC_PATH_TEDDY's) must
 * keep exactly the scalar kernel's candidates whose window's bit is set.
 * A single fingerprint takes the kernels' exact form (byte compares), and
 * only a single one; teddy_derive, as a compiled set's loader calls it,
 * finds the form from the tables alone, and a compile drops the
 * hashed-window second look where that fingerprint is the window itself.
 * A set whose candidates the model
 * rates as dense as the bytes starts its scans' stretches early
 * (dense_start).  Failures name the kernel.
 */
#include "teddy.h"

#include "ac_internal.h" /* ac_window_bit */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "guard_page.h"

static unsigned rng_state = 4242;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 16) % n;
}

static int fold_eq(uint8_t a, uint8_t b, int fold)
{
	if (fold && (a | 0x20) >= 'a' && (a | 0x20) <= 'z')
		return (a | 0x20) == (b | 0x20);
	return a == b;
}

/* Does some fingerprint occur at text[i + offset ..]? */
static int occurs(const uint8_t *fp, size_t n, uint32_t width, uint32_t offset, const uint8_t *text,
		  size_t len, size_t i, int fold)
{
	if (i + offset + width > len)
		return 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t j = 0;
		while (j < width && fold_eq(fp[k * width + j], text[i + offset + j], fold))
			j++;
		if (j == width)
			return 1;
	}
	return 0;
}

static const char *const kernel_names[] = {
	[SIMD_SCALAR] = "scalar", [SIMD_SSSE3] = "SSSE3", [SIMD_AVX2] = "AVX2", [SIMD_AVX512] = "AVX-512BW",
	[SIMD_NEON] = "NEON",
};

typedef size_t teddy_kernel(const struct teddy *t, const uint8_t *buf, size_t len, size_t pos,
			    uint64_t *mask);

/* The vector kernels this build has (each run where simd_runs says so),
 * up to the entry without one. */
static const struct {
	enum simd_level level;
	teddy_kernel *scan;
} kernels[] = {
#if SIMD_X86
	{ .level = SIMD_SSSE3, .scan = teddy_scan_ssse3 },
	{ .level = SIMD_AVX2, .scan = teddy_scan_avx2 },
	{ .level = SIMD_AVX512, .scan = teddy_scan_avx512 },
#endif
#if SIMD_ARM
	{ .level = SIMD_NEON, .scan = teddy_scan_neon },
#endif
	{ .level = SIMD_SCALAR, .scan = NULL },
};

/* One round's fingerprints. */
struct prints {
	uint8_t fp[64 * TEDDY_MAX_WIDTH];
	size_t n;
	uint32_t width, offset;
	int fold;
};

/* The vector kernel `scan` called alone from pos, against its contract:
 * the first block with a candidate (the scalar kernel's, wb, with its
 * mask, want), unless a block before it cannot be read whole: then the
 * first such block, with no mask.  Checked this way, a kernel that stops
 * early cannot hide behind teddy_next_block's scalar finish. */
static void check_alone(const struct teddy *t, teddy_kernel *scan, const uint8_t *text, size_t len,
			size_t pos, size_t wb, uint64_t want, const char *where)
{
	size_t span = 64 + t->offset + t->width - 1, stop = pos;
	while (stop < len && len - stop >= span)
		stop += 64;
	uint64_t got = 0;
	size_t gb = scan(t, text, len, pos, &got);
	CHECK(wb < stop ? gb == wb && got == want : gb == stop && got == 0,
	      "%s alone, text %s: len %zu pos %zu: block %zu mask %llx, scalar %zu %llx",
	      kernel_names[t->level], where, len, pos, gb, (unsigned long long)got, wb,
	      (unsigned long long)want);
}

/* The scalar kernel from every pos of text[0..len) against the definition,
 * and every vector kernel this CPU runs against the scalar one. */
static void check_text(const struct prints *f, const uint8_t *text, size_t len, const char *where)
{
	struct teddy ref, vec;
	teddy_build(&ref, f->fp, f->n, f->width, f->offset, f->fold, SIMD_SCALAR);
	struct teddy loaded = { .width = ref.width };
	memcpy(loaded.lo, ref.lo, sizeof loaded.lo);
	memcpy(loaded.hi, ref.hi, sizeof loaded.hi);
	teddy_derive(&loaded);
	CHECK(ref.exact.on == (f->n == 1) && memcmp(&loaded.exact, &ref.exact, sizeof ref.exact) == 0,
	      "text %s: %zu fingerprints, exact form %d, derived from the tables %d", where, f->n,
	      (int)ref.exact.on, (int)loaded.exact.on);
	for (size_t pos = 0; pos <= len; pos++) {
		uint64_t want = 0;
		size_t wb = teddy_next_block(&ref, text, len, pos, &want);
		/* the definition: every occurrence from pos is a candidate */
		for (size_t i = pos; i < len; i++)
			if (occurs(f->fp, f->n, f->width, f->offset, text, len, i, f->fold)) {
				CHECK(wb <= i && i - wb < 64 ? (want >> (i - wb)) & 1 : wb < i,
				      "scalar, text %s: occurrence at %zu missed (block %zu)", where, i, wb);
				break;
			}
		CHECK(wb == len || (want && (wb + 63 - (size_t)__builtin_clzll(want)) < len),
		      "scalar, text %s: candidate past the end", where);
		for (size_t k = 0; kernels[k].scan; k++) {
			enum simd_level lv = kernels[k].level;
			if (!simd_runs(lv))
				continue;
			uint64_t got = 0;
			teddy_build(&vec, f->fp, f->n, f->width, f->offset, f->fold, lv);
			size_t gb = teddy_next_block(&vec, text, len, pos, &got);
			CHECK(gb == wb && (gb == len || got == want),
			      "%s, text %s: len %zu pos %zu: block %zu mask %llx, scalar %zu %llx",
			      kernel_names[lv], where, len, pos, gb, (unsigned long long)got, wb,
			      (unsigned long long)want);
			check_alone(&vec, kernels[k].scan, text, len, pos, wb, want, where);
		}
	}
}

#if SIMD_X86
/* The second look's table (as the HASH table) and its verdicts on the
 * candidates m of the block at p (67 bytes readable). */
static uint64_t look_bits[(1u << AC_WINDOW_BITS) / 64];

static uint64_t looked(const struct teddy_window *w, const uint8_t *p, uint64_t m)
{
	uint64_t kept = 0;
	for (; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		uint32_t load;
		memcpy(&load, p + i, 4);
		kept |= ac_window_bit(w->bits, load, w->mask, w->fold) << i;
	}
	return kept;
}
#endif

/* The AVX-512 kernel with a second look, from every pos: the first whole
 * block (its starts' 4-byte windows readable too) whose scalar candidates
 * keep some after the look, with those kept; else the first block it
 * cannot read whole, with no mask. */
static void check_looked(const struct prints *f, const uint8_t *text, size_t len, const char *where)
{
#if SIMD_X86
	if (!simd_runs(SIMD_AVX512))
		return;
	struct teddy ref, vec;
	teddy_build(&ref, f->fp, f->n, f->width, f->offset, f->fold, SIMD_SCALAR);
	teddy_build(&vec, f->fp, f->n, f->width, f->offset, f->fold, SIMD_AVX512);
	uint32_t mask = rnd(2) ? 0xffffffffu : 0x00ffffffu; /* all of the load, or 3 bytes */
	vec.window = (struct teddy_window){ .bits = look_bits, .mask = mask,
					    .fold = rnd(2) ? 0x20202020u & mask : 0 };
	for (size_t k = 0; k < sizeof look_bits / sizeof *look_bits; k++)
		look_bits[k] = (uint64_t)rnd(1u << 16) << 48 | (uint64_t)rnd(1u << 16) << 32 |
			       (uint64_t)rnd(1u << 16) << 16 | rnd(1u << 16);
	size_t span = 64 + f->offset + f->width - 1;
	span = span > TEDDY_LOOK_SPAN ? span : TEDDY_LOOK_SPAN;
	for (size_t pos = 0; pos <= len; pos++) {
		size_t wb = pos;
		uint64_t want = 0;
		for (; len - wb >= span && wb < len; wb += 64) {
			uint64_t m = 0;
			if (teddy_next_block(&ref, text, len, wb, &m) != wb)
				m = 0;
			if ((want = looked(&vec.window, text + wb, m)) != 0)
				break;
		}
		uint64_t got = 0;
		size_t gb = teddy_scan_avx512(&vec, text, len, pos, &got);
		CHECK(gb == wb && got == want, "AVX-512BW with its second look, text %s: len %zu pos %zu: "
		      "block %zu mask %llx, want %zu %llx", where, len, pos, gb, (unsigned long long)got, wb,
		      (unsigned long long)want);
		/* and teddy_next_block on to the end: the starts of the last
		 * bytes, past the kernel's last whole block, get the look too,
		 * over zeros past the end, when the copy of them fits
		 * TEDDY_TAIL_PAD (else the scalar kernel's candidates) */
		size_t stop = pos, fp_end = f->offset + f->width;
		while (stop < len && len - stop >= span)
			stop += 64;
		size_t starts = len - stop >= fp_end ? len - stop - fp_end + 1 : 0;
		bool tail_looked = starts == 0 || ((starts + 63) / 64 - 1) * 64 + span <= TEDDY_TAIL_PAD;
		for (want = 0; wb < len; wb += 64) {
			uint64_t m = 0;
			if (teddy_next_block(&ref, text, len, wb, &m) != wb)
				m = 0;
			uint8_t padded[64 + TEDDY_LOOK_SPAN] = { 0 };
			memcpy(padded, text + wb, len - wb < sizeof padded ? len - wb : sizeof padded);
			if ((want = wb >= stop && !tail_looked ? m : looked(&vec.window, padded, m)) != 0)
				break;
		}
		wb = wb < len ? wb : len;
		gb = teddy_next_block(&vec, text, len, pos, &got);
		CHECK(gb == wb && (gb == len || got == want), "AVX-512BW with its second look to the end, "
		      "text %s: len %zu pos %zu: block %zu mask %llx, want %zu %llx", where, len, pos, gb,
		      (unsigned long long)got, wb, (unsigned long long)want);
	}
#else
	(void)f, (void)text, (void)len, (void)where;
#endif
}

/* ac->dense_start: set where Teddy's modelled candidates cost as much as
 * stepping every byte (a 1-byte fingerprint for each letter), not for a
 * few names' 3-byte prefixes. */
static void dense_start_by_model(void)
{
	static const char *const sets[][27] = {
		{ "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q",
		  "r", "s", "t", "u", "v", "w", "x", "y", "z", NULL },
		{ "linux", "torvalds", "kernel", "stable", "greg", NULL },
	};
	for (size_t k = 0; k < 2; k++) {
		ac_automaton *ac = ac_new(0);
		for (size_t i = 0; sets[k][i]; i++)
			ac_add(ac, sets[k][i], strlen(sets[k][i]));
		ac_compile(ac, AC_PATH_TEDDY);
		CHECK(ac->path == AC_PATH_TEDDY && ac->dense_start == (k == 0), "set %zu: path %d, dense_start %d",
		      k, (int)ac->path, (int)ac->dense_start);
		ac_free(ac);
	}
}

/* The hashed-window second look: kept for a fingerprint narrower than the
 * window ("wednesday": the rarest 3 bytes, somewhere inside), dropped
 * where the exact form's fingerprint is the window itself ("the"). */
static void second_look_where_it_adds(void)
{
	static const struct {
		const char *pattern;
		uint32_t window;
	} cases[] = { { "the", 0 }, { "wednesday", 4 }, { "them", 4 } };
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		ac_automaton *ac = ac_new(0);
		ac_add(ac, cases[k].pattern, strlen(cases[k].pattern));
		ac_compile(ac, AC_PATH_TEDDY);
		CHECK(ac->path == AC_PATH_TEDDY && ac->teddy.exact.on && ac->window_width == cases[k].window,
		      "%s: path %d, exact form %d, window %u (want %u)", cases[k].pattern, (int)ac->path,
		      (int)ac->teddy.exact.on, ac->window_width, cases[k].window);
		ac_free(ac);
	}
}

int main(void)
{
	printf("Teddy kernels up to %s run on this CPU\n", kernel_names[simd_cpu_level()]);
	/* the texts end at an inaccessible page, or start after one */
	struct guard_page g;
	bool mapped = guard_page_map(&g);
	CHECK(mapped, "guard pages");
	if (!mapped)
		return 1;
	static const char alpha[] = "abcAB\n\x80\xff";
	for (int iter = 0; iter < 420; iter++) {
		/* the last 20: offsets around TEDDY_TAIL_PAD's reach, past which
		 * the last bytes are left to the scalar kernel */
		bool far = iter >= 400;
		struct prints f = { .width = 1 + rnd(TEDDY_MAX_WIDTH), .offset = far ? 300 + rnd(60) : rnd(5) };
		f.n = iter % 4 == 1 ? 1 : 1 + rnd(iter % 4 == 0 ? 64 : 10);
		f.fold = (int)rnd(2);
		for (size_t k = 0; k < f.n * f.width; k++)
			f.fp[k] = (uint8_t)alpha[rnd(sizeof alpha - 1)];
		size_t len = far ? 300 + rnd(200) : rnd(300);
		uint8_t *end_text = g.end - len, *start_text = g.start;
		for (size_t i = 0; i < len; i++)
			end_text[i] = (uint8_t)alpha[rnd(sizeof alpha - 1)];
		check_text(&f, end_text, len, "ending at a guard page");
		check_looked(&f, end_text, len, "ending at a guard page");
		memmove(start_text, end_text, len);
		check_text(&f, start_text, len, "starting after a guard page");
		check_looked(&f, start_text, len, "starting after a guard page");
	}
	guard_page_free(&g);
	dense_start_by_model();
	second_look_where_it_adds();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
