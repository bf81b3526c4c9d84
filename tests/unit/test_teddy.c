/* test_teddy.c - the Teddy kernels against the scalar one and against the
 * definition.
 *
 * For random fingerprint sets (1 to 64 fingerprints, so buckets are shared;
 * widths 1-3; offsets 0-4; with and without folding) and random texts up
 * to 300 bytes, every vector kernel this CPU runs must return the same
 * block and candidate mask as the scalar kernel from every start position
 * and for every text length (so reads stop exactly at the buffer's end:
 * the text sits at the end of a guarded page), and every real fingerprint
 * occurrence must be a candidate.
 */
#include "teddy.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

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

int main(void)
{
	static const char *const names[] = { "scalar", "SSSE3", "AVX2", "AVX-512BW" };
	enum simd_level cpu = simd_cpu_level();
	printf("Teddy kernels up to %s run on this CPU\n", names[cpu]);
	/* Texts end at a page followed by an inaccessible one: an over-read faults. */
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *area = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(area != MAP_FAILED && mprotect(area + page, (size_t)page, PROT_NONE) == 0, "guard page");
	static const char alpha[] = "abcAB\n\x80\xff";
	for (int iter = 0; iter < 400; iter++) {
		uint32_t width = 1 + rnd(TEDDY_MAX_WIDTH), offset = rnd(5);
		size_t n = 1 + rnd(iter % 4 == 0 ? 64 : 10);
		int fold = (int)rnd(2);
		uint8_t fp[64 * TEDDY_MAX_WIDTH];
		for (size_t k = 0; k < n * width; k++)
			fp[k] = (uint8_t)alpha[rnd(sizeof alpha - 1)];
		size_t len = rnd(300);
		uint8_t *text = area + page - len;
		for (size_t i = 0; i < len; i++)
			text[i] = (uint8_t)alpha[rnd(sizeof alpha - 1)];
		struct teddy ref, vec;
		teddy_build(&ref, fp, n, width, offset, fold, SIMD_SCALAR);
		for (size_t pos = 0; pos <= len; pos++) {
			uint64_t want = 0;
			size_t wb = teddy_next_block(&ref, text, len, pos, &want);
			/* the definition: every occurrence from pos is a candidate */
			for (size_t i = pos; i < len; i++)
				if (occurs(fp, n, width, offset, text, len, i, fold)) {
					CHECK(wb <= i && i - wb < 64 ? (want >> (i - wb)) & 1 : wb < i,
					      "iter %d: occurrence at %zu missed (block %zu)", iter, i, wb);
					break;
				}
			CHECK(wb == len || (want && (wb + 63 - (size_t)__builtin_clzll(want)) < len),
			      "iter %d: candidate past the end", iter);
			for (int lv = SIMD_SSSE3; lv <= (int)cpu; lv++) {
				uint64_t got = 0;
				teddy_build(&vec, fp, n, width, offset, fold, (enum simd_level)lv);
				size_t gb = teddy_next_block(&vec, text, len, pos, &got);
				CHECK(gb == wb && (gb == len || got == want),
				      "iter %d %s: len %zu pos %zu: block %zu mask %llx, scalar %zu %llx", iter,
				      names[lv], len, pos, gb, (unsigned long long)got, wb,
				      (unsigned long long)want);
			}
		}
	}
	munmap(area, (size_t)page * 2);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
