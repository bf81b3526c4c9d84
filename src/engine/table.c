/* SPDX-License-Identifier: MIT */
/* table.c - the allocator for large tables and buffers (see table.h). */
#include "table.h"
#include "grow.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Bytes before a table's memory: its total size, for table_grow and
 * table_free (64 keeps the memory 64-byte aligned). */
#define TABLE_HEADER 64

/* A transparent huge page: it covers a 2 MiB-aligned range wholly inside
 * a mapping, so mappings start on such a boundary (one of a few MiB could
 * otherwise get none). */
#define HUGE_PAGE ((size_t)2 << 20)
_Static_assert(TABLE_MAPPED >= HUGE_PAGE, "a mapped table can hold a huge page");

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels refuse it harmlessly */
#endif

/* Maps `total` bytes, 2 MiB-aligned.  NULL on failure. */
static char *map_table(size_t total)
{
	size_t span = total + HUGE_PAGE;
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	char *end = a + ((total + page - 1) & ~(page - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (p + span > end)
		munmap(end, (size_t)(p + span - end));
	return a;
}

void table_populate(void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t hi = ((uintptr_t)p + len) & ~(uintptr_t)(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
}

static void *table_new(size_t bytes, bool populate, bool zero)
{
	if (bytes > SIZE_MAX - TABLE_HEADER - HUGE_PAGE)
		return NULL;
	size_t total = bytes + TABLE_HEADER;
	char *p;
	if (total >= TABLE_MAPPED) {
		if ((p = map_table(total)) == NULL)
			return NULL;
		(void)madvise(p, total, MADV_HUGEPAGE);
	} else if ((p = zero ? calloc(1, total) : malloc(total)) == NULL) {
		return NULL;
	}
	if (populate && total >= TABLE_POPULATED)
		table_populate(p, total);
	memcpy(p, &total, sizeof total);
	return p + TABLE_HEADER;
}

void *table_alloc(size_t bytes)
{
	return table_new(bytes, true, true);
}

void *table_alloc_unzeroed(size_t bytes)
{
	return table_new(bytes, true, false);
}

void *table_reserve(size_t bytes)
{
	return table_new(bytes, false, true);
}

void table_free(void *q)
{
	if (!q)
		return;
	char *p = (char *)q - TABLE_HEADER;
	size_t total;
	memcpy(&total, p, sizeof total);
	if (total >= TABLE_MAPPED)
		munmap(p, total);
	else
		free(p);
}

void table_shrink(void *q, size_t bytes)
{
	char *p = (char *)q - TABLE_HEADER;
	size_t old, total = bytes + TABLE_HEADER;
	memcpy(&old, p, sizeof old);
	if (old < TABLE_MAPPED || total >= old)
		return;
	if (total < TABLE_MAPPED)
		total = TABLE_MAPPED; /* stays a mapping, as table_free expects */
	if (mremap(p, old, total, 0) != MAP_FAILED)
		memcpy(p, &total, sizeof total);
}

void *table_grow(void *q, size_t bytes)
{
	if (!q)
		return table_reserve(bytes);
	if (bytes > SIZE_MAX - TABLE_HEADER - HUGE_PAGE)
		return NULL;
	char *p = (char *)q - TABLE_HEADER;
	size_t old, total = bytes + TABLE_HEADER;
	memcpy(&old, p, sizeof old);
	if (total <= old)
		return q;
	if (old >= TABLE_MAPPED) { /* new pages of an anonymous mapping are zero */
		char *np = mremap(p, old, total, 0); /* in place only: a move would lose the alignment */
		if (np != MAP_FAILED) {
			(void)madvise(np, total, MADV_HUGEPAGE);
			memcpy(np, &total, sizeof total);
			return np + TABLE_HEADER;
		}
	}
	char *nq = table_reserve(bytes);
	if (!nq)
		return NULL;
	memcpy(nq, q, old - TABLE_HEADER);
	table_free(q);
	return nq;
}

void *table_grow_heap(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = grow_capacity(*cap, need, 16, size);
	if (ncap == 0)
		return NULL;
	if (ncap == *cap)
		return p;
	void *np = NULL;
	if (ncap * size < HUGE_PAGE) {
		np = realloc(p, ncap * size);
	} else if (posix_memalign(&np, HUGE_PAGE, ncap * size) == 0) {
		(void)madvise(np, ncap * size, MADV_HUGEPAGE);
		if (p)
			memcpy(np, p, *cap * size);
		free(p);
	} else {
		np = NULL;
	}
	if (np)
		*cap = ncap;
	return np;
}
