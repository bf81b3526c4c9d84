/* SPDX-License-Identifier: MIT */
/* simd.h - which vector kernels this build has, the target attributes
 * that build them, and the block loop they share.  Engine-internal: the
 * layers above see enum simd_level and simd_cpu_level through ac.h.
 *
 * The x86 kernels need GCC/Clang's target attributes, which let one
 * binary carry every width; the aarch64 kernel (NEON, SIMD_ARM) needs
 * none, Advanced SIMD being part of every aarch64 CPU, and is built for
 * little-endian aarch64 only (its bitmaps read vector lanes as a 64-bit
 * word).  `make SIMD=none` (ACGREP_NO_SIMD) leaves them all out, as on
 * other CPUs.  Code calls a kernel only when simd_runs() (ac.h) says this
 * CPU runs its level.
 */
#ifndef ACGREP_SIMD_H
#define ACGREP_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "ac.h"
#include "bits.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(ACGREP_NO_SIMD)
#define SIMD_X86 1
#define TARGET_SSE2 __attribute__((target("sse2")))
#define TARGET_SSSE3 __attribute__((target("ssse3")))
#define TARGET_AVX2 __attribute__((target("avx2")))
#define TARGET_AVX512 __attribute__((target("avx512f,avx512bw")))
#define TARGET_AVX512VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))
/* For a kernel's parts: inlined into it whatever the optimizer thinks. */
#define SIMD_INLINE static inline __attribute__((always_inline))
#else
#define SIMD_X86 0
#endif

#if defined(__aarch64__) && defined(__ARM_NEON) && defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(ACGREP_NO_SIMD)
#define SIMD_ARM 1
#define SIMD_INLINE static inline __attribute__((always_inline))
#else
#define SIMD_ARM 0
#endif

#if SIMD_X86 || SIMD_ARM
/* A vector kernel's candidate bitmap of the 64-byte block at p (bit i set
 * when a match may start at p + i), from its state `kernel` (its tables,
 * loaded into vector registers once per call). */
typedef uint64_t simd_block_fn(const void *kernel, const uint8_t *p);

/* The block loop of every vector kernel: from pos, in steps of 64 bytes,
 * over the blocks with `span` bytes readable in buf[0..len), returns the
 * first block whose bitmap is not empty (and *mask, that bitmap), or the
 * first block it cannot read whole (with *mask = 0), which the caller
 * finishes in scalar code.  Always inlined into the kernel, with `block`
 * inlined into it: the loop is then the kernel's own. */
SIMD_INLINE size_t simd_block_loop(simd_block_fn *block, const void *kernel, const uint8_t *buf, size_t len,
				   size_t pos, size_t span, uint64_t *mask)
{
	for (; pos < len && len - pos >= span; pos += 64) {
		uint64_t m = block(kernel, buf + pos);
		if (m) {
			*mask = m;
			return pos;
		}
	}
	*mask = 0;
	return pos;
}

/* A kernel's second look at position i of a block (`data`: the block, or
 * what the kernel computed for it): 1 to keep i, else 0. */
typedef uint64_t simd_look_fn(const void *kernel, const void *data, unsigned i);

/* The bits of `cands` that `look` keeps.  Most blocks have none to two
 * candidates, and a branch on how many would be mispredicted: the first
 * two are looked at without one (a missing one looks at position 63 and
 * is masked off), the rest in a loop.  Inlined, `look` with it. */
SIMD_INLINE uint64_t simd_look_each(simd_look_fn *look, const void *kernel, const void *data, uint64_t cands)
{
	uint64_t second = cands & (cands - 1), kept = 0;
	for (int k = 0; k < 2; k++) {
		uint64_t c = k ? second : cands;
		unsigned i = ctz64(c | UINT64_C(1) << 63);
		kept |= (look(kernel, data, i) & (c >> i)) << i;
	}
	for (cands = second & (second - 1); cands; cands &= cands - 1) {
		unsigned i = ctz64(cands);
		kept |= look(kernel, data, i) << i;
	}
	return kept;
}
#endif

#endif
