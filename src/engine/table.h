/* SPDX-License-Identifier: MIT */
/* table.h - the allocator for large tables and buffers that grow.
 *
 * Owns: where large memory comes from.  From TABLE_MAPPED bytes on, a
 * table is a mapping of its own, 2 MiB-aligned, with transparent huge
 * pages asked for: on virtual machines every 4 KiB page fault is a trap to
 * the hypervisor, and a huge page covers only a 2 MiB range wholly inside
 * a mapping.  Such a table grows in place where it can (mremap).  Smaller
 * tables come from calloc, which reuses freed memory.  And the same for a buffer
 * that must stay free()-able (table_grow_heap).  Memory comes zeroed,
 * but table_alloc_unzeroed's; the pointer returned is 64-byte aligned (a
 * header before it keeps the size).  Part of the engine's public interface (see ac.h).
 */
#ifndef ACGREP_TABLE_H
#define ACGREP_TABLE_H

#include <stddef.h>

/* Tables of this many bytes and more are mappings of their own: smaller
 * ones could not hold a huge page, and from calloc they reuse the memory
 * of tables freed before (a fresh page costs a trap, about 3 us on a VM:
 * a 1,000-word set compiled again and again took 0.75 ms instead of
 * 0.12 ms when its 512 KiB of dense rows were a mapping of their own). */
#define TABLE_MAPPED ((size_t)2 << 20)
/* table_alloc faults in the pages of a table of this many bytes and more
 * with one call. */
#define TABLE_POPULATED ((size_t)256 << 10)

/* Returns `bytes` of zeroed memory, its pages faulted in at once (for a
 * table that will be filled), or NULL when out of memory.  Free with
 * table_free, never with free(). */
void *table_alloc(size_t bytes);

/* table_alloc for a table the caller writes whole before it reads it:
 * its bytes are unspecified (zero when it is a mapping), so memory that
 * calloc would reuse is not cleared first. */
void *table_alloc_unzeroed(size_t bytes);

/* table_alloc for an upper bound: pages become resident as they are first
 * written.  NULL when out of memory. */
void *table_reserve(size_t bytes);

/* Returns table q (NULL: none yet) grown to hold `bytes`, its contents
 * kept and the rest zeroed; q itself when it holds `bytes` already.  A
 * mapped table grows in place where it can, else it is copied into a new
 * one: grown by doubling (grow.h), the copies add up to less than the
 * final size.  Returns NULL when out of memory, with q untouched (still
 * the caller's to use or free). */
void *table_grow(void *q, size_t bytes);

/* Gives back what table q holds past its first `bytes` (mapped tables
 * only; q stays valid and keeps its first `bytes` either way). */
void table_shrink(void *q, size_t bytes);

/* Faults in the whole pages of [p, p + len) with one call instead of a
 * trap per 4 KiB page (where the kernel has MADV_POPULATE_WRITE; advice
 * only): for memory about to be written whole. */
void table_populate(void *p, size_t len);

/* Frees a table from table_alloc, table_reserve or table_grow; NULL is
 * fine. */
void table_free(void *q);

/* For a buffer that another module frees with free(): the pattern list
 * the engine adopts (ac_adopt_list).  Grows the malloc'd array p of *cap
 * elements of `size` bytes to hold `need` (grow.h's rule, from 16).  From
 * 2 MiB on it is aligned to 2 MiB with huge pages asked for, and moves by
 * copying (realloc would not keep it aligned): the copies add up to less
 * than the final size.  Returns the array, *cap updated; NULL when out of
 * memory, with p and *cap untouched. */
void *table_grow_heap(void *p, size_t *cap, size_t need, size_t size);

#endif
