/* SPDX-License-Identifier: MIT */
/* test_window_sieve.c - the HASH path's bucket sieve (window_sieve.c,
 * window_sieve.h) against its definition.
 *
 * Random sets (shortest pattern 3 or 4 bytes, so 3- and 4-byte windows;
 * letters, digits and bytes from 0x80 up; with and without ASCII folding;
 * from 1 to 140 distinct prefixes) are compiled for the HASH path and
 * their sieve built (ac_sieve_build, on any CPU):
 * - it is built exactly when the distinct prefixes are at most
 *   SIEVE_MAX_PREFIXES;
 * - every pattern's window passes, in each case under folding (a 3-byte
 *   window with any fourth byte): no match is ever lost;
 * - with at most SIEVE_BUCKETS prefixes, each its own bucket, an ASCII
 *   window passes exactly when it is a prefix (ignoring case under
 *   folding).
 * And the scan path runs it where it should: sets of 20 to 110 patterns
 * compiled for this CPU are sieved exactly when the CPU has AVX-512 VBMI
 * (never under a cap below AVX-512), and count the matches of a text with
 * the patterns planted as the scalar scan does, through the sieve and
 * through the sparse kernel forced in its place; and so do Teddy sets of
 * 20-60 literals, some with the second look inside the AVX-512 kernel.
 * Prints "N passed, N failed".
 */
#include "ac_internal.h"
#include "pair_simd.h" /* window_folds, on x86 */

#include <stdio.h>
#include <string.h>

#include "check.h"

#define MAX_PATS 300
#define MAX_LEN 12
#define RNG_SEED 4242
#include "window_sets.h"

static uint8_t random_byte(bool ascii)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .-";
	if (!ascii && rnd(6) == 0)
		return (uint8_t)(0x80 + rnd(128));
	return (uint8_t)letters[rnd(sizeof letters - 1)];
}

static void random_set(struct set *s, size_t n, size_t min_len, bool ascii)
{
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		s->len[i] = i == 0 ? min_len : min_len + rnd(MAX_LEN - min_len + 1);
		for (size_t j = 0; j < s->len[i]; j++)
			s->pat[i][j] = random_byte(ascii);
	}
}

/* Whether window w (width bytes) is one of the set's prefixes. */
static bool is_prefix(const struct set *s, const uint8_t *w, size_t width, bool fold)
{
	for (size_t i = 0; i < s->n; i++) {
		size_t j = 0;
		while (j < width && (fold ? (s->pat[i][j] | 0x20) == (w[j] | 0x20) || s->pat[i][j] == w[j]
					  : s->pat[i][j] == w[j]))
			j++;
		if (j == width)
			return true;
	}
	return false;
}

static size_t distinct_prefixes(const struct set *s, size_t width, bool fold)
{
	struct set seen = { .n = 0 };
	for (size_t i = 0; i < s->n; i++)
		if (!is_prefix(&seen, s->pat[i], width, fold)) {
			memcpy(seen.pat[seen.n], s->pat[i], width);
			seen.len[seen.n++] = width;
		}
	return seen.n;
}

static void random_sets(void)
{
	static const size_t sizes[] = { 1, 5, 16, 40, 100, 128, 140, 300 };
	for (int t = 0; t < 400; t++) {
		struct set s;
		size_t min_len = 3 + rnd(2);
		bool fold = rnd(2), ascii = t % 3 == 0;
		random_set(&s, sizes[rnd(sizeof sizes / sizeof *sizes)], min_len, ascii);
		ac_automaton *ac = compile(&s, fold ? AC_FOLD_ASCII : 0, AC_PATH_HASH, SIMD_BEST);
		CHECK(ac && ac->path == AC_PATH_HASH && ac->window_width == min_len, "set %d: compiles for HASH", t);
		if (!ac || ac->path != AC_PATH_HASH || ac->window_width != min_len) {
			ac_free(ac);
			continue;
		}
		size_t n = distinct_prefixes(&s, min_len, fold);
		struct window_sieve sieve;
		bool built = ac_sieve_build(ac, &sieve);
		CHECK(built == (n <= SIEVE_MAX_PREFIXES), "set %d: %zu prefixes, built %d", t, n, built);
		for (size_t i = 0; built && i < s.n; i++) {
			uint8_t w[4] = { 0, 0, 0, (uint8_t)rnd(256) };
			memcpy(w, s.pat[i], min_len);
			for (size_t j = 0; fold && j < min_len; j++)
				w[j] = rnd(2) ? flip_case(w[j]) : w[j];
			CHECK(window_sieve_admits(&sieve, w), "set %d (%zu prefixes, fold %d): pattern %zu's window", t,
			      n, fold, i);
		}
		if (built && ascii && n <= SIEVE_BUCKETS) {
			for (int k = 0; k < 2000; k++) {
				uint8_t w[4] = { 0, 0, 0, random_byte(true) };
				const uint8_t *p = s.pat[rnd((unsigned)s.n)];
				for (size_t j = 0; j < min_len; j++) /* near a prefix, often one */
					w[j] = rnd(4) ? p[j] : random_byte(true);
				CHECK(window_sieve_admits(&sieve, w) == is_prefix(&s, w, min_len, fold),
				      "set %d (%zu prefixes, fold %d): window %.4s exactly", t, n, fold, (const char *)w);
			}
		}
		ac_free(ac);
	}
}

/* A text of random bytes from the sets' alphabet with the set's patterns
 * planted, case-flipped at times. */
static void planted_text(uint8_t *text, size_t len, const struct set *s)
{
	for (size_t i = 0; i < len; i++)
		text[i] = random_byte(true);
	for (size_t at = rnd(40); at + MAX_LEN < len; at += 1 + rnd(60)) {
		size_t p = rnd((unsigned)s->n);
		for (size_t j = 0; j < s->len[p]; j++)
			text[at + j] = rnd(8) ? s->pat[p][j] : flip_case(s->pat[p][j]);
	}
}

/* ac_window_kernel_derive: sieved where the VBMI kernel runs; and the
 * sieve, the sparse kernel (forced here: on a VBMI CPU the sieve always
 * takes its sets) and the scalar scan count the same matches. */
static void kernel_choice(void)
{
	static uint8_t text[1 << 16];
	bool vbmi = simd_cpu_level() == SIMD_AVX512 && simd_cpu_vbmi();
	int forced = 0;
	for (int t = 0; t < 40; t++) {
		struct set s;
		unsigned flags = t % 2 ? AC_FOLD_ASCII : 0;
		random_set(&s, 20 + rnd(90), 3 + (unsigned)(t % 4 < 2), true);
		ac_automaton *ac = compile(&s, flags, AC_PATH_AUTO, SIMD_BEST);
		ac_automaton *scalar = compile(&s, flags, AC_PATH_HASH, SIMD_SCALAR);
		if (!ac || !scalar || ac->path != AC_PATH_HASH || ac->window_stride != 1 || !ac->window_sparse) {
			ac_free(ac);
			ac_free(scalar);
			continue;
		}
		CHECK(ac->window_sieved == vbmi, "set %d: sieved %d on a CPU %s VBMI", t, ac->window_sieved,
		      vbmi ? "with" : "without");
		planted_text(text, sizeof text, &s);
		size_t want = ac_count_leftmost(scalar, text, sizeof text, 0);
		CHECK(ac_count_leftmost(ac, text, sizeof text, 0) == want, "set %d: the kernel's count", t);
#if SIMD_X86
		if (ac->window_sieved) {
			ac->window_sieved = false;
			window_folds(ac->window_bits, ac->window_folds);
			CHECK(ac_count_leftmost(ac, text, sizeof text, 0) == want, "set %d: the sparse kernel's count", t);
			forced++;
		}
#endif
		ac_free(ac);
		ac_free(scalar);
	}
	CHECK(!vbmi || forced >= 10, "%d sets through both the sieve and the sparse kernel", forced);
	/* Teddy's second look inside its AVX-512 kernel: sets of 20-60
	 * literals share buckets enough for it (ac_teddy_share) */
	int looked = 0;
	for (int t = 0; t < 20; t++) {
		struct set s;
		unsigned flags = t % 2 ? AC_FOLD_ASCII : 0;
		random_set(&s, 20 + rnd(40), 3 + rnd(2), true);
		ac_automaton *ac = compile(&s, flags, AC_PATH_TEDDY, SIMD_BEST);
		ac_automaton *scalar = compile(&s, flags, AC_PATH_HASH, SIMD_SCALAR);
		if (ac && scalar && ac->path == AC_PATH_TEDDY) {
			planted_text(text, sizeof text, &s);
			CHECK(ac_count_leftmost(ac, text, sizeof text, 0) == ac_count_leftmost(scalar, text, sizeof text, 0),
			      "Teddy set %d (second look in the kernel: %d): the count", t, ac->teddy.window.bits != NULL);
			looked += ac->teddy.window.bits != NULL;
		}
		ac_free(ac);
		ac_free(scalar);
	}
	CHECK(simd_cpu_level() != SIMD_AVX512 || looked > 0, "%d Teddy sets looked inside the kernel", looked);
	struct set s;
	random_set(&s, 100, 4, true);
	ac_automaton *ac = compile(&s, 0, AC_PATH_AUTO, SIMD_AVX2);
	CHECK(ac && ac->path == AC_PATH_HASH && !ac->window_sieved, "100 words capped at AVX2: not sieved");
	ac_free(ac);
}

int main(void)
{
	random_sets();
	kernel_choice();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
