/* SPDX-License-Identifier: MIT */
/* fuzz_format.h - the layout of fuzz_matcher's inputs, shared with the
 * seed generator's documentation (mkseeds.py writes the same bits).
 *
 * byte 0: FUZZ_* option bits; byte 1: FUZZ_GEN_* bits, then the generated
 * substrings' width - 1 (bits 2-4) and stride - 1 (bits 5-7); bytes 2-3:
 * the pattern section's length (byte 2 | (byte 3 & 3) << 8) and a seed
 * (byte 3 >> 2); the pattern section (split on the line terminator); the
 * text.
 */
#ifndef ACGREP_FUZZ_FORMAT_H
#define ACGREP_FUZZ_FORMAT_H

#define FUZZ_HEADER 4

enum fuzz_option_bits {
	FUZZ_ICASE = 1 << 0,          /* -i */
	FUZZ_WORD = 1 << 1,           /* -w */
	FUZZ_LINE = 1 << 2,           /* -x */
	FUZZ_NULL_DATA = 1 << 3,      /* -z: lines end with NUL */
	FUZZ_NUL_ENDS_LINES = 1 << 4, /* a binary file: NUL also ends lines for -x */
	FUZZ_KWSET = 1 << 5,          /* grep's kwset -w rules, else its regex matcher's */
	FUZZ_UTF8 = 1 << 6,           /* a UTF-8 locale */
	FUZZ_THREADS = 1 << 7,        /* compile on two threads */
};

enum fuzz_generate_bits {
	FUZZ_GEN_SUBSTRINGS = 1 << 0, /* every stride-th substring of the text */
	FUZZ_GEN_AFFIXES = 1 << 1,    /* prefixes and suffixes of the listed patterns */
};

#define FUZZ_MAX_INPUT (1 << 16)   /* longer inputs are ignored */
#define FUZZ_MAX_PATTERNS 8192     /* listed and generated */
/* Bytes in all patterns together, which bounds the automaton's states:
 * generated sets stay cheap to compile 14 times, and only with two
 * compile threads may they reach the two-thread sizes (65,536). */
#define FUZZ_MAX_PATTERN_BYTES 16384
#define FUZZ_MAX_PATTERN_BYTES_THREADS 81920
#define FUZZ_ALL_POSITIONS 128     /* texts up to this long: find from every position */
#define FUZZ_SAMPLES 48            /* else this many line starts and random positions */

#endif
