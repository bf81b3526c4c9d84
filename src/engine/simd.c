/* SPDX-License-Identifier: MIT */
/* simd.c - the vector kernels this build has and this CPU runs (see
 * simd.h and ac.h). */
#include "simd.h"

bool simd_built(void)
{
	return simd_built_names() != NULL;
}

const char *simd_built_names(void)
{
#if SIMD_X86
	return "SSSE3 AVX2 AVX-512BW AVX-512VBMI";
#elif SIMD_ARM
	return "NEON";
#else
	return NULL;
#endif
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
	return SIMD_SCALAR;
#elif SIMD_ARM
	return SIMD_NEON; /* Advanced SIMD is part of every aarch64 CPU */
#else
	return SIMD_SCALAR;
#endif
}

bool simd_runs(enum simd_level level)
{
	enum simd_level cpu = simd_cpu_level();
	switch (level) {
	case SIMD_SCALAR: return true;
	case SIMD_SSSE3: case SIMD_AVX2: case SIMD_AVX512:
		return cpu != SIMD_NEON && level <= cpu;
	case SIMD_NEON: return cpu == SIMD_NEON;
	case SIMD_BEST: break;
	}
	return false;
}

bool simd_cpu_vbmi(void)
{
#if SIMD_X86
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512vbmi");
#else
	return false;
#endif
}

bool simd_cpu_slow_gathers(void)
{
#if SIMD_X86
	__builtin_cpu_init();
	return __builtin_cpu_is("amd");
#else
	return false;
#endif
}

bool simd_cpu_bmi1(void)
{
#if SIMD_X86
	__builtin_cpu_init();
	return __builtin_cpu_supports("bmi");
#else
	return false;
#endif
}
