/* simd.h - which vector kernels this build has, and the target attributes
 * that build them.  Engine-internal: the layers above see enum simd_level
 * and simd_cpu_level through ac.h.
 *
 * The kernels need x86 and GCC/Clang's target attributes, which let one
 * binary carry every width; `make SIMD=none` (ACGREP_NO_SIMD) leaves them
 * out, as on other CPUs.  Code calls a kernel only when simd_cpu_level()
 * is at least its level.
 */
#ifndef ACGREP_SIMD_H
#define ACGREP_SIMD_H

#include "ac.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(ACGREP_NO_SIMD)
#define SIMD_X86 1
#define TARGET_SSSE3 __attribute__((target("ssse3")))
#define TARGET_AVX2 __attribute__((target("avx2")))
#define TARGET_AVX512 __attribute__((target("avx512f,avx512bw")))
#else
#define SIMD_X86 0
#endif

#endif
