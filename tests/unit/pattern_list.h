/* SPDX-License-Identifier: MIT */
/* pattern_list.h - builds a struct pattern_set (config.h) from an array of
 * struct pattern, as opts.c lays one out, for the unit tests that hand
 * patterns straight to a matcher.  Free it with pattern_list_free.
 */
#ifndef ACGREP_TEST_PATTERN_LIST_H
#define ACGREP_TEST_PATTERN_LIST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options/config.h"

static inline struct pattern_set pattern_list(const struct pattern *pats, size_t n)
{
	size_t bytes = 1;
	for (size_t i = 0; i < n; i++)
		bytes += pats[i].len + 1;
	struct pattern_set ps = {
		.storage = malloc(bytes), .end = malloc((n ? n : 1) * sizeof(uint32_t)), .count = n,
	};
	if (!ps.storage || !ps.end)
		abort();
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		memcpy(ps.storage + used, pats[i].bytes, pats[i].len);
		ps.holds_nul = ps.holds_nul || memchr(pats[i].bytes, '\0', pats[i].len);
		ps.storage[used + pats[i].len] = '\0';
		ps.end[i] = (uint32_t)(used + pats[i].len);
		used += pats[i].len + 1;
	}
	return ps;
}

static inline void pattern_list_free(struct pattern_set *ps)
{
	free(ps->storage);
	free(ps->end);
}

#endif
