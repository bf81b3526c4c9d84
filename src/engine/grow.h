/* SPDX-License-Identifier: MIT */
/* grow.h - the one growth rule for buffers that grow as they fill.
 *
 * Owns: how a capacity grows (doubling from a first size, so that filling
 * n elements copies fewer than 2n) and the overflow checks that go with
 * it.  Every layer's growing arrays use it: the engine's pattern store,
 * the walk's listings, the pool's held output, the option lists.
 */
#ifndef ACGREP_GROW_H
#define ACGREP_GROW_H

#include <stddef.h>

/* The capacity, in elements, a buffer of `cap` elements (0: none yet)
 * grows to so as to hold `need`: cap (or `first` when cap is 0) doubled
 * until it is at least need, and never more elements of `elem` bytes than
 * SIZE_MAX bytes.  Returns cap itself when need <= cap, 0 when no such
 * capacity exists.  `first` and `elem` are at least 1. */
size_t grow_capacity(size_t cap, size_t need, size_t first, size_t elem);

/* Grows the realloc'd array p of *cap elements of `elem` bytes to hold
 * `need` (by grow_capacity).  Returns the array, *cap updated; NULL when
 * out of memory or past SIZE_MAX, with p and *cap untouched (p is still
 * the caller's to use or free). */
void *grow_array(void *p, size_t *cap, size_t need, size_t elem, size_t first);

#endif
