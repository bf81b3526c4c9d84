/* test_teddy.c - the Teddy kernels against the scalar one and against the
 * definition.
 *
 * For random fingerprint sets (1 to 64 fingerprints, so buckets are shared;
 * widths 1-3; offsets 0-4; with and without folding) and random texts up
 * to 300 bytes, every vector kernel this CPU runs must return the same
 * block and candidate mask as the scalar kernel from every start position
 * (so reads stop exactly at the buffer's end: the text ends exactly at an
 * inaccessible page, or starts exactly after one), and every real
 * fingerprint occurrence must be a candidate.  Failures name the kernel.
 */
#include "teddy.h"

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
};

/* One round's fingerprints. */
struct prints {
	uint8_t fp[64 * TEDDY_MAX_WIDTH];
	size_t n;
	uint32_t width, offset;
	int fold;
};

/* The scalar kernel from every pos of text[0..len) against the definition,
 * and every vector kernel up to cpu against the scalar one. */
static void check_text(const struct prints *f, const uint8_t *text, size_t len, const char *where,
		       enum simd_level cpu)
{
	struct teddy ref, vec;
	teddy_build(&ref, f->fp, f->n, f->width, f->offset, f->fold, SIMD_SCALAR);
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
		for (int lv = SIMD_SSSE3; lv <= (int)cpu; lv++) {
			uint64_t got = 0;
			teddy_build(&vec, f->fp, f->n, f->width, f->offset, f->fold, (enum simd_level)lv);
			size_t gb = teddy_next_block(&vec, text, len, pos, &got);
			CHECK(gb == wb && (gb == len || got == want),
			      "%s, text %s: len %zu pos %zu: block %zu mask %llx, scalar %zu %llx",
			      kernel_names[lv], where, len, pos, gb, (unsigned long long)got, wb,
			      (unsigned long long)want);
		}
	}
}

int main(void)
{
	enum simd_level cpu = simd_cpu_level();
	printf("Teddy kernels up to %s run on this CPU\n", kernel_names[cpu]);
	/* the texts end at an inaccessible page, or start after one */
	struct guard_page g;
	bool mapped = guard_page_map(&g);
	CHECK(mapped, "guard pages");
	if (!mapped)
		return 1;
	static const char alpha[] = "abcAB\n\x80\xff";
	for (int iter = 0; iter < 400; iter++) {
		struct prints f = { .width = 1 + rnd(TEDDY_MAX_WIDTH), .offset = rnd(5) };
		f.n = 1 + rnd(iter % 4 == 0 ? 64 : 10);
		f.fold = (int)rnd(2);
		for (size_t k = 0; k < f.n * f.width; k++)
			f.fp[k] = (uint8_t)alpha[rnd(sizeof alpha - 1)];
		size_t len = rnd(300);
		uint8_t *end_text = g.end - len, *start_text = g.start;
		for (size_t i = 0; i < len; i++)
			end_text[i] = (uint8_t)alpha[rnd(sizeof alpha - 1)];
		check_text(&f, end_text, len, "ending at a guard page", cpu);
		memmove(start_text, end_text, len);
		check_text(&f, start_text, len, "starting after a guard page", cpu);
	}
	guard_page_free(&g);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
