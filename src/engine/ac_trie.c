/* SPDX-License-Identifier: MIT */
/* ac_trie.c - collecting patterns and building the trie, breadth-first.
 *
 * Owns: ac_add's pattern store (each pattern's bytes followed by one
 * separator byte, as in a struct pattern_set, so that ac_adopt_list takes a
 * whole list as it is; plus one end offset per pattern), rebuilding it in
 * sorted order without duplicates (the order is ac_sort.c's), and the trie
 * built from the sorted patterns directly in breadth-first numbering, with
 * no intermediate depth-first trie and no renumbering.  Knows nothing of
 * failure links, byte classes or scanning (ac_build.c).
 *
 * The breadth-first construction: in sorted order a pattern adds the nodes
 * at depths lcp+1..len, where lcp is its common prefix with its predecessor
 * (less than len: no duplicates are left).  Breadth-first order with
 * children in byte order is order by (depth, prefix), so counting the new
 * nodes per depth gives each depth's first id, and a second pass hands out
 * ids per depth in sorted order.  Each pass is sequential within a depth.
 * A large set's siblings are then put in order of byte frequency
 * (ac_trie_order_siblings), one more breadth-first pass.
 */
#include "ac_trie.h"
#include "grow.h"
#include "table.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
	uint8_t *bytes = table_reserve(ac->pat_used);
	uint32_t *end = table_reserve((size_t)ac->n_patterns * sizeof *end);
	if (!bytes || !end) {
		table_free(bytes);
		table_free(end);
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
	size_t bytes_cap = grow_capacity(ac->pat_cap, ac->pat_used + bytes, 4096, 1);
	size_t ends_cap = grow_capacity(ac->pat_end_cap, ac->n_patterns + n, 1024, sizeof *ac->pat_end);
	if (!bytes_cap || !ends_cap)
		return -1;
	if (bytes_cap != ac->pat_cap) {
		uint8_t *b = table_grow(ac->pat_bytes, bytes_cap);
		if (!b)
			return -1;
		ac->pat_bytes = b;
		ac->pat_cap = bytes_cap;
	}
	if (ends_cap != ac->pat_end_cap) {
		uint32_t *e = table_grow(ac->pat_end, ends_cap * sizeof *e);
		if (!e)
			return -1;
		ac->pat_end = e;
		ac->pat_end_cap = ends_cap;
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
		table_free(ac->pat_bytes);
		table_free(ac->pat_end);
	}
	ac->store_adopted = false;
	ac->pat_bytes = NULL;
	ac->pat_end = NULL;
	ac->pat_used = ac->pat_cap = ac->pat_end_cap = 0;
}
/* ---- the breadth-first trie --------------------------------------------- */

/* Rebuilds the store with the patterns ord[0..m) in that order (sorted,
 * without duplicates), so that building the trie reads it front to back
 * and duplicates cost no memory from here on; ord[k] is then the pattern
 * id of the new store's k-th pattern.  Returns 0, or -1 when out of memory
 * (the store is then unchanged). */
static int store_compact(ac_automaton *ac, uint32_t *ord, uint32_t m)
{
	struct store old = { .bytes = ac->pat_bytes, .end = ac->pat_end };
	uint8_t *bytes = table_reserve(ac->pat_used); /* only the pages used become resident */
	uint32_t *end = table_reserve((size_t)m * sizeof *end);
	if (!bytes || !end) {
		table_free(bytes);
		table_free(end);
		return -1;
	}
	uint32_t used = 0;
	for (uint32_t k = 0; k < m; k++) {
		uint32_t i = ord[k], s = pat_start(&old, i), len = old.end[i] - s;
		memcpy(bytes + used, old.bytes + s, len + 1); /* with its separator */
		end[k] = used + len;
		used += len + 1;
	}
	table_shrink(bytes, used); /* a huge page past `used` would stay resident */
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
	struct store st = { .bytes = ac->pat_bytes, .end = ac->pat_end };
	uint32_t m = ac->n_nonempty;
	size_t depths = ac->max_len + 2;
	uint32_t *ord = table_alloc((size_t)m * sizeof *ord);
	uint32_t *lcp = table_alloc((size_t)m * sizeof *lcp);
	uint32_t *next = table_alloc(depths * sizeof *next);
	uint32_t *path = table_alloc(depths * sizeof *path);
	int rc = -1;
	bool in_order = false;
	if (!ord || !lcp || !next || !path ||
	    ac_sort_patterns(&st, ac->n_patterns, ord, lcp, &m, &in_order, ac->threads) != 0)
		goto out;
	if (!in_order) { /* lcp only served the sort: make room for the new store */
		table_free(lcp);
		lcp = NULL;
		table_shrink(ord, (size_t)m * sizeof *ord); /* the duplicates' room too */
		if (store_compact(ac, ord, m) != 0)
			goto out;
		st = (struct store){ .bytes = ac->pat_bytes, .end = ac->pat_end };
		if (!(lcp = table_alloc((size_t)m * sizeof *lcp)))
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
	ac->first = table_alloc((n + 1) * sizeof *ac->first);
	ac->in_cls = table_alloc(n);
	ac->out_len = table_alloc(n * sizeof *ac->out_len);
	ac->out_id = table_alloc(n * sizeof *ac->out_id);
	if (!ac->first || !ac->in_cls || !ac->out_len || !ac->out_id)
		goto out;
	assign_ids(ac, &st, ord, compacted, lcp, m, next, path);
	ac->trie.terminal = ac->out_id;
	ac->trie.inbyte = ac->in_cls;
	ac->trie.n_nodes = n;
	rc = 0;
out:
	table_free(ord);
	table_free(lcp);
	table_free(next);
	table_free(path);
	return rc;
}

/* ---- siblings by byte frequency ----------------------------------------- */

/* Puts the old entry old_of[q] of table[0..n) at q; tmp holds n entries. */
static void permute32(uint32_t *table, const uint32_t *old_of, uint32_t n, uint32_t *tmp)
{
	memcpy(tmp, table, (size_t)n * sizeof *tmp);
	for (uint32_t q = 0; q < n; q++)
		table[q] = tmp[old_of[q]];
}

int ac_trie_order_siblings(ac_automaton *ac, const uint8_t rank[256])
{
	uint32_t n = ac->n_states;
	/* written whole; `first` becomes the permutes' scratch once copied */
	uint32_t *old_of = table_alloc_unzeroed((size_t)n * sizeof *old_of);
	uint32_t *first = table_alloc_unzeroed(((size_t)n + 1) * sizeof *first);
	if (!old_of || !first) {
		table_free(old_of);
		table_free(first);
		return -1;
	}
	const uint32_t *old_first = ac->first;
	const uint8_t *in_byte = ac->in_cls;
	old_of[0] = AC_ROOT;
	uint32_t next = 1;
	/* breadth-first over the new ids: old_of is its own queue */
	for (uint32_t q = 0; q < n; q++) {
		uint32_t s = old_of[q], lo = next, end = old_first[s + 1];
		first[q] = lo;
		for (uint32_t c = old_first[s]; c < end; c++) {
			uint32_t j = next++;
			if (j > lo) { /* insertion, highest rank first: at most 256 children */
				uint8_t r = rank[in_byte[c]];
				for (; j > lo && rank[in_byte[old_of[j - 1]]] < r; j--)
					old_of[j] = old_of[j - 1];
			}
			old_of[j] = c;
		}
	}
	first[n] = n;
	memcpy(ac->first, first, ((size_t)n + 1) * sizeof *first);
	permute32(ac->out_len, old_of, n, first);
	permute32(ac->out_id, old_of, n, first);
	uint8_t *old_byte = (uint8_t *)first;
	memcpy(old_byte, ac->in_cls, n);
	for (uint32_t q = 0; q < n; q++)
		ac->in_cls[q] = old_byte[old_of[q]];
	table_free(old_of);
	table_free(first);
	return 0;
}
