/* SPDX-License-Identifier: MIT */
/* ac_sort.c - sorting the pattern store and finding its duplicates.
 *
 * Owns: the order in which ac_trie_build reads the patterns (by their
 * bytes, shorter first among equal prefixes) and which copies of a
 * duplicate are dropped (every one but the first added).  An MSD radix
 * sort, stable, insertion sort for small ranges; a huge set is shared out
 * between two threads.  Reads the store (ac_trie.h); changes nothing but
 * the order array it is given.
 */
#include "ac_trie.h"
#include "grow.h"
#include "table.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Orders patterns i and j by bytes from offset `depth` on (the first depth
 * bytes are equal), shorter first, then by id: -2 or 2 when their bytes
 * differ, -1 or 1 when only their ids do (duplicates), 0 when i == j. */
static int pat_cmp(const struct store *st, uint32_t i, uint32_t j, uint32_t depth)
{
	uint32_t si = pat_start(st, i), sj = pat_start(st, j);
	uint32_t li = st->end[i] - si, lj = st->end[j] - sj;
	uint32_t n = li < lj ? li : lj;
	int c = n > depth ? memcmp(st->bytes + si + depth, st->bytes + sj + depth, n - depth) : 0;
	if (c)
		return c < 0 ? -2 : 2;
	if (li != lj)
		return li < lj ? -2 : 2;
	return i < j ? -1 : i > j;
}

/* Marks in ord (ids stay below 2^31: each takes a byte of the store) a
 * duplicate of the pattern before it, which the sort found. */
#define DUPLICATE 0x80000000u

/* Ranges up to this size are sorted by insertion. */
#define SMALL_RANGE 32

/* Sorts ord[0..n) (n <= SMALL_RANGE, ascending on entry, the first depth
 * bytes equal) by insertion and marks duplicates.  Each pattern is first
 * compared with the last one placed (one comparison for a list already in
 * order), else its place is found by binary search, after every pattern
 * not greater: ids arrive in ascending order, so a pattern whose bytes
 * equal its left neighbour's is a later copy, and nothing is ever placed
 * between the two. */
static void small_sort(const struct store *st, uint32_t *ord, uint32_t n, uint32_t depth)
{
	bool dup[SMALL_RANGE] = { false };
	for (uint32_t k = 1; k < n; k++) {
		uint32_t v = ord[k], lo = 0, hi = k - 1;
		int c = pat_cmp(st, ord[k - 1], v, depth), left = 2;
		if (c < 0) {
			dup[k] = c == -1;
			continue;
		}
		while (lo < hi) { /* the first of ord[0..k-1) greater than v, else k-1 */
			uint32_t mid = lo + (hi - lo) / 2;
			int m = pat_cmp(st, ord[mid], v, depth);
			if (m > 0) {
				hi = mid;
			} else {
				lo = mid + 1;
				left = m;
			}
		}
		memmove(ord + lo + 1, ord + lo, (k - lo) * sizeof *ord);
		memmove(dup + lo + 1, dup + lo, (k - lo) * sizeof *dup);
		ord[lo] = v;
		dup[lo] = left == -1;
	}
	for (uint32_t k = 1; k < n; k++)
		ord[k] |= dup[k] ? DUPLICATE : 0;
}

struct range {
	uint32_t lo, hi, depth;
};

/* Sorts range r of ord by insertion when it is small; else distributes it
 * by its byte at r.depth (stably) and appends to out[*n...] the buckets
 * still to sort (256 at most), marking the copies after the first in the
 * bucket of patterns that ended.  tmp and key are indexed as ord. */
static void distribute(const struct store *st, uint32_t *ord, uint32_t *tmp, uint16_t *key, struct range r,
		       struct range *out, size_t *n)
{
	if (r.hi - r.lo <= SMALL_RANGE) {
		small_sort(st, ord + r.lo, r.hi - r.lo, r.depth);
		return;
	}
	uint32_t count[257] = { 0 };
	for (uint32_t k = r.lo; k < r.hi; k++) {
		uint32_t i = ord[k], s = pat_start(st, i);
		key[k] = r.depth < st->end[i] - s ? (uint16_t)(st->bytes[s + r.depth] + 1) : 0;
		count[key[k]]++;
	}
	if (count[key[r.lo]] == r.hi - r.lo) { /* one bucket: look one byte further */
		if (key[r.lo] != 0)
			out[(*n)++] = (struct range){ .lo = r.lo, .hi = r.hi, .depth = r.depth + 1 };
		else
			for (uint32_t k = r.lo + 1; k < r.hi; k++) /* all ended here: equal */
				ord[k] |= DUPLICATE;
		return;
	}
	uint32_t pos[257], sum = r.lo;
	for (int b = 0; b < 257; b++) {
		pos[b] = sum;
		sum += count[b];
	}
	for (uint32_t k = r.lo; k < r.hi; k++)
		tmp[pos[key[k]]++] = ord[k];
	memcpy(ord + r.lo, tmp + r.lo, (size_t)(r.hi - r.lo) * sizeof *ord);
	for (uint32_t k = r.lo + 1; k < pos[0]; k++) /* bucket 0: ended here, all equal */
		ord[k] |= DUPLICATE;
	for (int b = 1; b < 257; b++)
		if (count[b] > 1)
			out[(*n)++] = (struct range){ .lo = pos[b] - count[b], .hi = pos[b], .depth = r.depth + 1 };
}

/* Sorts the disjoint ranges init[0..n) of ord, each to the end, with an
 * explicit stack.  Returns 0, or -1 when out of memory. */
static int sort_ranges(const struct store *st, uint32_t *ord, uint32_t *tmp, uint16_t *key,
		       const struct range *init, size_t n)
{
	size_t cap = n + 256, top = 0;
	struct range *stack = malloc(cap * sizeof *stack);
	if (!stack)
		return -1;
	while (top < n) {
		stack[top] = init[top];
		top++;
	}
	while (top) {
		struct range r = stack[--top];
		struct range *room = grow_array(stack, &cap, top + 256, sizeof *stack, cap);
		if (!room) {
			free(stack);
			return -1;
		}
		stack = room;
		distribute(st, ord, tmp, key, r, stack, &top);
	}
	free(stack);
	return 0;
}

/* Sets of this many patterns and more are sorted on two threads. */
#define PARALLEL_SORT 65536

struct sort_job {
	const struct store *st;
	uint32_t *ord, *tmp;
	uint16_t *key;
	const struct range *ranges;
	size_t n;
	int rc;
};

static void *sort_job_run(void *arg)
{
	struct sort_job *job = arg;
	job->rc = sort_ranges(job->st, job->ord, job->tmp, job->key, job->ranges, job->n);
	return NULL;
}

/* Sorts ord[0..m) (pattern ids, ascending on entry) by pattern bytes:
 * an MSD radix sort, insertion sort for small ranges.  Distribution is
 * stable, so equal patterns keep id order, and every copy after the first
 * is marked DUPLICATE.  With two threads and a large set, the largest
 * range is distributed until none holds half of the entries, and the
 * ranges are then shared out by size between this thread and another.
 * tmp and key hold m entries.  Returns 0, or -1 when out of memory. */
static int radix_sort(const struct store *st, uint32_t *ord, uint32_t *tmp, uint16_t *key, uint32_t m,
		      unsigned threads)
{
	struct range root = { .lo = 0, .hi = m, .depth = 0 };
	if (threads < 2 || m < PARALLEL_SORT)
		return sort_ranges(st, ord, tmp, key, &root, 1);
	size_t cap = 512, n = 1;
	struct range *part = malloc(cap * sizeof *part);
	if (!part)
		return -1;
	part[0] = root;
	for (;;) {
		size_t big = 0;
		for (size_t k = 1; k < n; k++)
			if (part[k].hi - part[k].lo > part[big].hi - part[big].lo)
				big = k;
		if (n == 0 || part[big].hi - part[big].lo <= m / 2)
			break;
		struct range *room = grow_array(part, &cap, n + 256, sizeof *part, cap);
		if (!room) {
			free(part);
			return -1;
		}
		part = room;
		struct range r = part[big];
		part[big] = part[--n];
		distribute(st, ord, tmp, key, r, part, &n);
	}
	struct range *mine = malloc((n ? n : 1) * sizeof *mine);
	if (!mine) {
		free(part);
		return -1;
	}
	size_t n_mine = 0, n_other = 0; /* the other thread's ranges fill part[] from the front */
	uint64_t load_mine = 0, load_other = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t size = part[k].hi - part[k].lo;
		if (load_mine <= load_other) {
			mine[n_mine++] = part[k];
			load_mine += size;
		} else {
			part[n_other++] = part[k];
			load_other += size;
		}
	}
	struct sort_job job = { .st = st, .ord = ord, .tmp = tmp, .key = key, .ranges = part, .n = n_other };
	pthread_t other;
	bool started = pthread_create(&other, NULL, sort_job_run, &job) == 0;
	int rc = sort_ranges(st, ord, tmp, key, mine, n_mine);
	if (started)
		pthread_join(other, NULL);
	else
		sort_job_run(&job);
	free(mine);
	free(part);
	return rc ? rc : job.rc;
}

int ac_sort_patterns(const struct store *st, uint32_t n_ids, uint32_t *ord, uint32_t *tmp, uint32_t *m,
		     bool *in_order, unsigned threads)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n_ids; i++)
		if (st->end[i] != pat_start(st, i))
			ord[k++] = i;
	bool sorted = true;
	for (k = 1; k < *m && sorted; k++)
		sorted = pat_cmp(st, ord[k - 1], ord[k], 0) < 0;
	if (sorted) { /* only duplicates to mark, each next to its (unmarked) first copy */
		for (uint32_t first = 0, j = 1; j < *m; j++) {
			if (pat_cmp(st, ord[first], ord[j], 0) == -1)
				ord[j] |= DUPLICATE;
			else
				first = j;
		}
	} else {
		uint16_t *key = table_alloc((size_t)*m * sizeof *key);
		int rc = key ? radix_sort(st, ord, tmp, key, *m, threads) : -1;
		table_free(key);
		if (rc != 0)
			return rc;
	}
	uint32_t u = 0;
	for (k = 0; k < *m; k++)
		if (!(ord[k] & DUPLICATE))
			ord[u++] = ord[k];
	*in_order = sorted && u == *m;
	*m = u;
	return 0;
}
