/* SPDX-License-Identifier: MIT */
/* check.h - the assertion macro the C unit tests share.
 *
 * CHECK(cond, fmt, ...) counts a pass, or counts a failure and prints
 * "FAIL file:line: <message>" on stderr.  Each test's main() ends with
 * printf("%d passed, %d failed\n", passed, failed) and returns failed != 0.
 */
#ifndef ACGREP_TEST_CHECK_H
#define ACGREP_TEST_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (cond) {                                                     \
			passed++;                                               \
		} else {                                                        \
			failed++;                                               \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);    \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
		}                                                               \
	} while (0)

#endif
