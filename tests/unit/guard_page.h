/* SPDX-License-Identifier: MIT */
/* guard_page.h - one readable page between two inaccessible ones, for the
 * unit tests that hold a kernel to reading only its buffer: text ending at
 * the page's end or starting at its start faults on any over-read.
 */
#ifndef ACGREP_TEST_GUARD_PAGE_H
#define ACGREP_TEST_GUARD_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

struct guard_page {
	uint8_t *start, *end; /* the readable page: [start, end) */
	uint8_t *area;        /* the three pages, for guard_page_free */
	size_t page;
};

/* Maps the three pages.  False when the mapping or the protection fails. */
static inline bool guard_page_map(struct guard_page *g)
{
	g->page = (size_t)sysconf(_SC_PAGESIZE);
	void *a = mmap(NULL, g->page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return false;
	g->area = a;
	g->start = g->area + g->page;
	g->end = g->start + g->page;
	return mprotect(g->area, g->page, PROT_NONE) == 0 && mprotect(g->end, g->page, PROT_NONE) == 0;
}

static inline void guard_page_free(struct guard_page *g)
{
	munmap(g->area, g->page * 3);
}

#endif
