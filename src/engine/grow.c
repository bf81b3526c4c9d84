/* SPDX-License-Identifier: MIT */
/* grow.c - the one growth rule for buffers that grow (see grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

size_t grow_capacity(size_t cap, size_t need, size_t first, size_t elem)
{
	if (need <= cap)
		return cap;
	size_t most = SIZE_MAX / elem;
	if (need > most)
		return 0;
	size_t n = cap ? cap : first;
	while (n < need)
		n = n > most / 2 ? most : n * 2;
	return n;
}

void *grow_array(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t n = grow_capacity(*cap, need, first, elem);
	if (n == 0)
		return NULL;
	if (n == *cap)
		return p;
	void *q = realloc(p, n * elem);
	if (!q)
		return NULL;
	*cap = n;
	return q;
}
