/* SPDX-License-Identifier: MIT */
/* acgrep_main.h - acgrep's main() under another name, for fuzz_cli.
 *
 * The fuzz build compiles src/cli/main.c a second time with
 * -Dmain=acgrep_main -include tests/fuzz/acgrep_main.h, so that the whole
 * program runs in-process, as many times as the fuzzer likes (main.c
 * never calls exit(): every path returns).
 */
#ifndef ACGREP_FUZZ_MAIN_H
#define ACGREP_FUZZ_MAIN_H

int acgrep_main(int argc, char **argv);

#endif
