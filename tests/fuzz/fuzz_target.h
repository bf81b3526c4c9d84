/* SPDX-License-Identifier: MIT */
/* fuzz_target.h - the entry points every fuzz target defines, as libFuzzer
 * (and AFL++'s libFuzzer driver) calls them; replay.c calls them too.
 */
#ifndef ACGREP_FUZZ_TARGET_H
#define ACGREP_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* Called once before the first input; may change *argc and *argv. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Runs one input; returns 0.  A finding aborts (or a sanitizer reports). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
