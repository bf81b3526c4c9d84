/* simd.c - the vector kernels this build has and this CPU runs (see
 * simd.h and ac.h). */
#include "simd.h"

bool simd_built(void)
{
	return SIMD_X86;
}

enum simd_level simd_cpu_level(void)
{
#if SIMD_X86
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512bw"))
		return SIMD_AVX512;
	if (__builtin_cpu_supports("avx2"))
		return SIMD_AVX2;
	if (__builtin_cpu_supports("ssse3"))
		return SIMD_SSSE3;
#endif
	return SIMD_SCALAR;
}
