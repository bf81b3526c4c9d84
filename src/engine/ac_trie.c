/* ac_trie.c - collecting patterns and building the trie, breadth-first.
 *
 * Owns: ac_add's pattern store (each pattern's bytes followed by one
 * separator byte, as in a struct pattern_set, so that ac_adopt_list takes a
 * whole list as it is; plus one end offset per pattern), sorting it (MSD
 * radix sort, stable, which finds the duplicates: the first copy wins, the
 * others are dropped), rebuilding it in that order, and the trie built
 * from the sorted patterns directly in breadth-first numbering, with no
 * intermediate depth-first trie and no renumbering; also the allocator for
 * the automaton's large tables.  Knows nothing of failure links, byte classes or
 * scanning (ac_build.c).
 *
 * The breadth-first construction: in sorted order a pattern adds the nodes
 * at depths lcp+1..len, where lcp is its common prefix with its predecessor
 * (less than len: no duplicates are left).  Breadth-first order with
 * children in byte order is order by (depth, prefix), so counting the new nodes per depth gives
 * each depth's first id, and a second pass hands out ids per depth in
 * sorted order.  Each pass is sequential within a depth.
 */
#include "ac_trie.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Tables of 256 KiB and more get their own mapping with transparent huge
 * pages requested: on virtual machines 4 KiB page faults and TLB misses
 * dominate building a large automaton, and a mapping can grow in place
 * (mremap).  Memory comes zeroed.  A header keeps the size for
 * ac_table_grow and ac_table_free. */
#define TABLE_HEADER 64
#define TABLE_HUGE (256u << 10)

/* A huge page covers only a 2 MiB-aligned range wholly inside a mapping:
 * mappings of 2 MiB and more start on such a boundary, or one of a few MiB
 * may get none (all 4 KiB faults, each a trap to the hypervisor on a VM:
 * 40% of the time of compiling 663,000 words, before alignment). */
#define HUGE_PAGE ((size_t)2 << 20)

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels refuse it harmlessly */
#endif

/* Maps `total` bytes, 2 MiB-aligned from 2 MiB on.  NULL on failure. */
static char *map_table(size_t total)
{
	size_t span = total < HUGE_PAGE ? total : total + HUGE_PAGE;
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (span == total)
		return p;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	char *end = a + ((total + page - 1) & ~(page - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (p + span > end)
		munmap(end, (size_t)(p + span - end));
	return a;
}

static void *table_alloc(size_t bytes, bool populate)
{
	if (bytes > SIZE_MAX - TABLE_HEADER - HUGE_PAGE)
		return NULL;
	size_t total = bytes + TABLE_HEADER;
	char *p;
	if (total >= TABLE_HUGE) {
		if ((p = map_table(total)) == NULL)
			return NULL;
		(void)madvise(p, total, MADV_HUGEPAGE);
		if (populate) /* one call instead of a trap per 4 KiB page */
			(void)madvise(p, total, MADV_POPULATE_WRITE);
	} else if ((p = calloc(1, total)) == NULL) {
		return NULL;
	}
	memcpy(p, &total, sizeof total);
	return p + TABLE_HEADER;
}

void *ac_table_alloc(size_t bytes)
{
	return table_alloc(bytes, true);
}

void *ac_table_reserve(size_t bytes)
{
	return table_alloc(bytes, false);
}

void ac_table_free(void *q)
{
	if (!q)
		return;
	char *p = (char *)q - TABLE_HEADER;
	size_t total;
	memcpy(&total, p, sizeof total);
	if (total >= TABLE_HUGE)
		munmap(p, total);
	else
		free(p);
}

void ac_table_shrink(void *q, size_t bytes)
{
	char *p = (char *)q - TABLE_HEADER;
	size_t old, total = bytes + TABLE_HEADER;
	memcpy(&old, p, sizeof old);
	if (old < TABLE_HUGE || total >= old)
		return;
	if (total < TABLE_HUGE)
		total = TABLE_HUGE; /* stays a mapping, as ac_table_free expects */
	if (mremap(p, old, total, 0) != MAP_FAILED)
		memcpy(p, &total, sizeof total);
}

void *ac_table_grow(void *q, size_t bytes)
{
	if (!q)
		return ac_table_reserve(bytes);
	if (bytes > SIZE_MAX - TABLE_HEADER - HUGE_PAGE)
		return NULL;
	char *p = (char *)q - TABLE_HEADER;
	size_t old, total = bytes + TABLE_HEADER;
	memcpy(&old, p, sizeof old);
	if (total <= old)
		return q;
	bool aligned = total < HUGE_PAGE || ((uintptr_t)p & (HUGE_PAGE - 1)) == 0;
	if (old >= TABLE_HUGE && aligned) { /* new pages of an anonymous mapping are zero */
		char *np = mremap(p, old, total, 0); /* in place only: a move would lose the alignment */
		if (np != MAP_FAILED) {
			(void)madvise(np, total, MADV_HUGEPAGE);
			memcpy(np, &total, sizeof total);
			return np + TABLE_HEADER;
		}
	}
	char *nq = ac_table_reserve(bytes);
	if (!nq)
		return NULL;
	memcpy(nq, q, old - TABLE_HEADER);
	ac_table_free(q);
	return nq;
}

/* ---- the pattern store -------------------------------------------------- */

static uint8_t fold_ascii(uint8_t b)
{
	return (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 32) : b;
}

ac_automaton *ac_new(unsigned flags)
{
	ac_automaton *ac = calloc(1, sizeof *ac);
	if (ac)
		ac->flags = flags;
	return ac;
}

/* Moves an adopted store (ac_adopt_list) into tables, so that it can grow. */
static int store_own(ac_automaton *ac)
{
	uint8_t *bytes = ac_table_reserve(ac->pat_used);
	uint32_t *end = ac_table_reserve((size_t)ac->n_patterns * sizeof *end);
	if (!bytes || !end) {
		ac_table_free(bytes);
		ac_table_free(end);
		return -1;
	}
	memcpy(bytes, ac->pat_bytes, ac->pat_used);
	memcpy(end, ac->pat_end, (size_t)ac->n_patterns * sizeof *end);
	size_t used = ac->pat_used;
	ac_store_free(ac);
	ac->pat_bytes = bytes;
	ac->pat_end = end;
	ac->pat_used = ac->pat_cap = used;
	ac->pat_end_cap = ac->n_patterns;
	return 0;
}

/* Makes room in the store for `bytes` more bytes and `n` more patterns. */
static int store_reserve(ac_automaton *ac, size_t bytes, size_t n)
{
	if (bytes > AC_ID_MASK - ac->pat_used || n > AC_NONE - 1 - ac->n_patterns)
		return -1;
	if (ac->store_adopted && store_own(ac) != 0)
		return -1;
	if (ac->pat_used + bytes > ac->pat_cap) {
		size_t cap = ac->pat_cap ? ac->pat_cap : 4096;
		while (cap < ac->pat_used + bytes)
			cap *= 2;
		uint8_t *b = ac_table_grow(ac->pat_bytes, cap);
		if (!b)
			return -1;
		ac->pat_bytes = b;
		ac->pat_cap = cap;
	}
	if (ac->n_patterns + n > ac->pat_end_cap) {
		size_t cap = ac->pat_end_cap ? ac->pat_end_cap : 1024;
		while (cap < ac->n_patterns + n)
			cap *= 2;
		uint32_t *e = ac_table_grow(ac->pat_end, cap * sizeof *e);
		if (!e)
			return -1;
		ac->pat_end = e;
		ac->pat_end_cap = cap;
	}
	return 0;
}

/* Counts pattern `id` of `len` bytes in the store's summary. */
static void store_note(ac_automaton *ac, uint32_t id, size_t len)
{
	if (len == 0) {
		if (!ac->has_empty)
			ac->empty_id = id;
		ac->has_empty = true;
		return;
	}
	ac->n_nonempty++;
	if (len > ac->max_len)
		ac->max_len = len;
	if (!ac->min_len || len < ac->min_len)
		ac->min_len = len;
}

/* Records that the next pattern, `len` bytes and its separator, was just
 * written at the store's end. */
static void store_commit(ac_automaton *ac, size_t len)
{
	uint32_t id = ac->n_patterns++;
	ac->pat_end[id] = (uint32_t)(ac->pat_used + len);
	ac->pat_used += len + 1;
	store_note(ac, id, len);
}

/* Empty patterns are stored too (zero length), so a pattern's id is its
 * index in pat_end; the trie skips them. */
int ac_add(ac_automaton *ac, const void *p, size_t len)
{
	if (ac->compiled || len >= AC_ID_MASK || store_reserve(ac, len + 1, 1) != 0)
		return -1;
	uint8_t *dst = ac->pat_bytes + ac->pat_used;
	if (ac->flags & AC_FOLD_ASCII) {
		const uint8_t *src = p;
		for (size_t i = 0; i < len; i++)
			dst[i] = fold_ascii(src[i]);
	} else if (len) {
		memcpy(dst, p, len);
	}
	dst[len] = '\0';
	store_commit(ac, len);
	return 0;
}

int ac_adopt_list(ac_automaton *ac, void *text, uint32_t *end, size_t count)
{
	size_t bytes = count ? (size_t)end[count - 1] + 1 : 0;
	if (ac->compiled || ac->n_patterns || ac->pat_bytes || bytes > AC_ID_MASK || count > AC_NONE - 1) {
		free(text);
		free(end);
		return -1;
	}
	ac->pat_bytes = text;
	ac->pat_end = end;
	ac->pat_used = ac->pat_cap = bytes;
	ac->pat_end_cap = count;
	ac->store_adopted = true;
	if (ac->flags & AC_FOLD_ASCII)
		for (size_t i = 0; i < bytes; i++) /* the separators too: never read */
			ac->pat_bytes[i] = fold_ascii(ac->pat_bytes[i]);
	for (uint32_t k = 0; k < count; k++)
		store_note(ac, k, end[k] - (k ? (size_t)end[k - 1] + 1 : 0));
	ac->n_patterns = (uint32_t)count;
	return 0;
}

void ac_store_free(ac_automaton *ac)
{
	if (ac->store_adopted) {
		free(ac->pat_bytes);
		free(ac->pat_end);
	} else {
		ac_table_free(ac->pat_bytes);
		ac_table_free(ac->pat_end);
	}
	ac->store_adopted = false;
	ac->pat_bytes = NULL;
	ac->pat_end = NULL;
	ac->pat_used = ac->pat_cap = ac->pat_end_cap = 0;
}

/* ---- sorting ------------------------------------------------------------ */

struct store {
	const uint8_t *bytes;
	const uint32_t *end;
};

static inline uint32_t pat_start(const struct store *st, uint32_t i)
{
	return i ? st->end[i - 1] + 1 : 0;
}

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
			out[(*n)++] = (struct range){ r.lo, r.hi, r.depth + 1 };
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
			out[(*n)++] = (struct range){ pos[b] - count[b], pos[b], r.depth + 1 };
}

/* Returns *v with room for `need` ranges (capacity *cap, doubled), or NULL
 * (v freed) when out of memory. */
static struct range *ranges_room(struct range *v, size_t *cap, size_t need)
{
	if (need <= *cap)
		return v;
	while (*cap < need)
		*cap *= 2;
	struct range *nv = realloc(v, *cap * sizeof *nv);
	if (!nv)
		free(v);
	return nv;
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
		if (!(stack = ranges_room(stack, &cap, top + 256)))
			return -1;
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
	struct range root = { 0, m, 0 };
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
		if (!(part = ranges_room(part, &cap, n + 256)))
			return -1;
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
	struct sort_job job = { st, ord, tmp, key, part, n_other, 0 };
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

/* ---- the breadth-first trie --------------------------------------------- */

/* Fills ord[0..*m) with the ids of the *m non-empty patterns in sorted
 * order, each duplicate dropped (*m is then their number), and sets
 * *in_order when they were already stored so, without duplicates.  tmp
 * holds *m entries; the sort may use `threads` threads (two at most). */
static int sort_patterns(const struct store *st, uint32_t n_ids, uint32_t *ord, uint32_t *tmp,
			 uint32_t *m, bool *in_order, unsigned threads)
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
		uint16_t *key = ac_table_alloc((size_t)*m * sizeof *key);
		int rc = key ? radix_sort(st, ord, tmp, key, *m, threads) : -1;
		ac_table_free(key);
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

/* Rebuilds the store with the patterns ord[0..m) in that order (sorted,
 * without duplicates), so that building the trie reads it front to back
 * and duplicates cost no memory from here on; ord[k] is then the pattern
 * id of the new store's k-th pattern.  Returns 0, or -1 when out of memory
 * (the store is then unchanged). */
static int store_compact(ac_automaton *ac, uint32_t *ord, uint32_t m)
{
	struct store old = { ac->pat_bytes, ac->pat_end };
	uint8_t *bytes = ac_table_reserve(ac->pat_used); /* only the pages used become resident */
	uint32_t *end = ac_table_reserve((size_t)m * sizeof *end);
	if (!bytes || !end) {
		ac_table_free(bytes);
		ac_table_free(end);
		return -1;
	}
	uint32_t used = 0;
	for (uint32_t k = 0; k < m; k++) {
		uint32_t i = ord[k], s = pat_start(&old, i), len = old.end[i] - s;
		memcpy(bytes + used, old.bytes + s, len + 1); /* with its separator */
		end[k] = used + len;
		used += len + 1;
	}
	ac_table_shrink(bytes, used); /* a huge page past `used` would stay resident */
	ac_store_free(ac);
	ac->pat_bytes = bytes;
	ac->pat_end = end;
	ac->pat_used = ac->pat_cap = used;
	ac->pat_end_cap = m;
	return 0;
}

/* Common prefix length of patterns i and j. */
static uint32_t pat_lcp(const struct store *st, uint32_t i, uint32_t j)
{
	uint32_t si = pat_start(st, i), sj = pat_start(st, j);
	uint32_t li = st->end[i] - si, lj = st->end[j] - sj, n = li < lj ? li : lj, c = 0;
	const uint8_t *a = st->bytes + si, *b = st->bytes + sj;
	while (c < n && a[c] == b[c])
		c++;
	return c;
}

/* The store index of the k-th pattern in sorted order: ord[k], or k once
 * store_compact has put the store in order (ord then holds pattern ids). */
static inline uint32_t sorted_at(const uint32_t *ord, bool compacted, uint32_t k)
{
	return compacted ? k : ord[k];
}

/* Second pass: hands out ids depth by depth.  next[d] is the next free id
 * at depth d; path[d] the current pattern's node at depth d. */
static void assign_ids(ac_automaton *ac, const struct store *st, const uint32_t *ord,
		       bool compacted, const uint32_t *lcp, uint32_t m, uint32_t *next, uint32_t *path)
{
	uint32_t *first = ac->first, *out_len = ac->out_len, *out_id = ac->out_id;
	uint8_t *inbyte = ac->in_cls;
	path[0] = AC_ROOT;
	out_id[AC_ROOT] = AC_NONE;
	for (uint32_t k = 0; k < m; k++) {
		uint32_t i = sorted_at(ord, compacted, k), s = pat_start(st, i), len = st->end[i] - s;
		const uint8_t *p = st->bytes + s;
		for (uint32_t d = lcp[k] + 1; d <= len; d++) {
			uint32_t id = next[d]++;
			path[d] = id;
			inbyte[id] = p[d - 1];
			out_id[id] = AC_NONE;
			first[path[d - 1] + 1]++; /* child counts, summed below */
		}
		out_len[path[len]] = len | AC_OWN_BIT;
		out_id[path[len]] = ord[k];
	}
	first[AC_ROOT] = 1;
	for (uint32_t s = 0; s < ac->n_states; s++)
		first[s + 1] += first[s];
}

int ac_trie_build(ac_automaton *ac)
{
	struct store st = { ac->pat_bytes, ac->pat_end };
	uint32_t m = ac->n_nonempty;
	size_t depths = ac->max_len + 2;
	uint32_t *ord = ac_table_alloc((size_t)m * sizeof *ord);
	uint32_t *lcp = ac_table_alloc((size_t)m * sizeof *lcp);
	uint32_t *next = ac_table_alloc(depths * sizeof *next);
	uint32_t *path = ac_table_alloc(depths * sizeof *path);
	int rc = -1;
	bool in_order = false;
	if (!ord || !lcp || !next || !path ||
	    sort_patterns(&st, ac->n_patterns, ord, lcp, &m, &in_order, ac->threads) != 0)
		goto out;
	if (!in_order) { /* lcp only served the sort: make room for the new store */
		ac_table_free(lcp);
		lcp = NULL;
		ac_table_shrink(ord, (size_t)m * sizeof *ord); /* the duplicates' room too */
		if (store_compact(ac, ord, m) != 0)
			goto out;
		st = (struct store){ ac->pat_bytes, ac->pat_end };
		if (!(lcp = ac_table_alloc((size_t)m * sizeof *lcp)))
			goto out;
	}
	bool compacted = !in_order;
	/* First pass: new nodes per depth, as differences (+1 at lcp+1, -1 past len). */
	size_t n = 1;
	for (uint32_t k = 0; k < m; k++) {
		uint32_t i = sorted_at(ord, compacted, k), len = st.end[i] - pat_start(&st, i);
		lcp[k] = k ? pat_lcp(&st, sorted_at(ord, compacted, k - 1), i) : 0;
		next[lcp[k] + 1]++;
		next[len + 1]--;
		n += len - lcp[k];
	}
	if (n > AC_ID_MASK)
		goto out;
	uint32_t id = 1, run = 0; /* depth d's first id: 1 + the nodes above it */
	for (size_t d = 1; d < depths; d++) {
		run += next[d];
		next[d] = id;
		id += run;
	}
	ac->n_states = (uint32_t)n;
	ac->first = ac_table_alloc((n + 1) * sizeof *ac->first);
	ac->in_cls = ac_table_alloc(n);
	ac->out_len = ac_table_alloc(n * sizeof *ac->out_len);
	ac->out_id = ac_table_alloc(n * sizeof *ac->out_id);
	if (!ac->first || !ac->in_cls || !ac->out_len || !ac->out_id)
		goto out;
	assign_ids(ac, &st, ord, compacted, lcp, m, next, path);
	ac->trie.terminal = ac->out_id;
	ac->trie.inbyte = ac->in_cls;
	ac->trie.n_nodes = n;
	rc = 0;
out:
	ac_table_free(ord);
	ac_table_free(lcp);
	ac_table_free(next);
	ac_table_free(path);
	return rc;
}
