/* ac_build.c - compiling fixed strings into an Aho-Corasick automaton.
 *
 * Owns: the trie (built in one pass over the sorted patterns, so duplicates
 * and shared prefixes cost nothing extra), failure and output links, byte classes,
 * the dense/sparse transition tables and the prefilter tables.  Knows
 * nothing of files, lines or options.
 *
 * References:
 *   A. V. Aho and M. J. Corasick, "Efficient string matching: an aid to
 *   bibliographic search", CACM 18(6), 1975 - goto, failure and output
 *   functions, and their conversion to a DFA (section 6).
 *   B. Commentz-Walter, "A string matching algorithm fast on the average",
 *   ICALP 1979, and S. Wu and U. Manber, "A fast algorithm for multi-pattern
 *   searching", TR-94-17, 1994 - skipping text that cannot start a match,
 *   which the prefilter does with 2-byte fingerprints instead of shifts.
 */
#include "ac_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Bytes of dense transition rows we allow before deeper states go sparse. */
#define AC_DENSE_BUDGET (8u << 20)

/* Byte frequency rank in a mixed English/C/man-page corpus: 0 is rarest.
 * Generated once from text on a Debian system; used to pick memchr bytes. */
static const uint8_t byte_rank[256] = {
	  0,   1,   2,   3,   4,   5,   6,  91,   7, 196, 242,   8, 142,   9,  10,  11,
	 12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,
	255, 155, 197, 190, 156, 162, 175, 183, 209, 208, 214, 170, 224, 225, 234, 249,
	222, 211, 213, 199, 189, 181, 187, 176, 182, 193, 203, 192, 179, 191, 180, 154,
	171, 219, 205, 215, 207, 229, 206, 201, 200, 230, 177, 174, 217, 202, 220, 216,
	212, 169, 226, 228, 231, 204, 184, 194, 186, 195, 178, 173, 218, 172, 163, 236,
	165, 248, 239, 243, 241, 254, 235, 233, 240, 252, 185, 210, 245, 237, 246, 250,
	244, 198, 247, 251, 253, 238, 227, 221, 223, 232, 188, 168, 164, 167, 166,  28,
	160,  92, 122, 125, 136, 120,  84, 110, 109,  93,  76,  77,  78, 130,  94, 105,
	 95,  29, 106, 148,  96,  85,  90,  30, 129, 151,  79,  86, 152, 153,  31, 119,
	137, 139, 134, 132, 147, 114, 115, 141, 143, 159,  97, 124,  80, 144,  98, 102,
	111, 150, 116, 145, 138, 133, 149,  87, 117,  88, 113, 126, 135, 118,  99, 123,
	 32,  33, 158, 157, 131, 146, 107,  34,  89, 108,  35,  36,  37,  38, 112, 100,
	127, 101,  39,  40,  41,  42,  43,  44, 103, 104,  45,  46,  47,  48,  49,  50,
	140, 128, 161,  51,  81,  52,  53,  82,  83,  54,  55,  56,  57,  58,  59, 121,
	 60,  61,  62,  63,  64,  65,  66,  67,  68,  69,  70,  71,  72,  73,  74,  75,
};

static uint8_t fold_ascii(uint8_t b)
{
	return (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 32) : b;
}

static bool is_ascii_letter(uint8_t b)
{
	return fold_ascii(b) >= 'a' && fold_ascii(b) <= 'z';
}

/* Tables of a few MiB and more get their own mapping with transparent huge
 * pages requested: on virtual machines 4 KiB page faults and TLB misses
 * dominate building a large automaton (wamerican-insane: 0.87 s instead of
 * 1.38 s).  Memory comes zeroed.  A header keeps the size for table_free. */
#define TABLE_HEADER 64
#define TABLE_HUGE (4u << 20)

static void *table_alloc(size_t bytes)
{
	if (bytes > SIZE_MAX - TABLE_HEADER)
		return NULL;
	size_t total = bytes + TABLE_HEADER;
	char *p;
	if (total >= TABLE_HUGE) {
		p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		(void)madvise(p, total, MADV_HUGEPAGE);
	} else if ((p = calloc(1, total)) == NULL) {
		return NULL;
	}
	memcpy(p, &total, sizeof total);
	return p + TABLE_HEADER;
}

static void table_free(void *q)
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

static void *grow(void *p, size_t n, size_t size)
{
	return n > SIZE_MAX / size ? NULL : realloc(p, n * size);
}

/* ---- patterns and the build-time trie ----------------------------------- */

/* Patterns are only collected by ac_add; ac_compile sorts them and builds the
 * trie in one sequential pass: each pattern shares the path of its sorted
 * predecessor up to their common prefix, so no lookup structure is needed. */
struct pattern_ref {
	size_t offset;  /* in ac->pat_bytes */
	uint32_t len;
	uint32_t id;
};

static int compare_patterns(const void *a, const void *b, void *ctx)
{
	const struct pattern_ref *x = a, *y = b;
	const uint8_t *bytes = ctx;
	uint32_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(bytes + x->offset, bytes + y->offset, n);
	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void trie_free(struct ac_trie *t)
{
	table_free(t->parent);
	table_free(t->terminal);
	table_free(t->depth);
	table_free(t->inbyte);
	memset(t, 0, sizeof *t);
}

/* Builds the trie of all non-empty patterns (nodes in depth-first order). */
static int trie_build(ac_automaton *ac)
{
	struct ac_trie *t = &ac->trie;
	size_t n = ac->n_refs, cap = ac->pat_used + 1;
	struct pattern_ref *refs = ac->refs;
	bool sorted = true;
	for (size_t k = 1; k < n && sorted; k++)
		sorted = compare_patterns(&refs[k - 1], &refs[k], ac->pat_bytes) < 0;
	if (!sorted)
		qsort_r(refs, n, sizeof *refs, compare_patterns, ac->pat_bytes);
	if (cap > AC_ID_MASK)
		return -1;
	t->parent = table_alloc(cap * sizeof *t->parent);
	t->terminal = table_alloc(cap * sizeof *t->terminal);
	t->depth = table_alloc(cap * sizeof *t->depth);
	t->inbyte = table_alloc(cap);
	uint32_t *path = table_alloc((ac->max_len + 1) * sizeof *path);
	if (!t->parent || !t->terminal || !t->depth || !t->inbyte || !path) {
		table_free(path);
		return -1;
	}
	t->parent[AC_ROOT] = AC_NONE;
	t->terminal[AC_ROOT] = AC_NONE;
	t->depth[AC_ROOT] = 0;
	t->inbyte[AC_ROOT] = 0;
	t->n_nodes = 1;
	path[0] = AC_ROOT;
	const uint8_t *prev = NULL;
	uint32_t prev_len = 0;
	for (size_t k = 0; k < n; k++) {
		const uint8_t *p = ac->pat_bytes + refs[k].offset;
		uint32_t len = refs[k].len, common = 0;
		while (prev && common < len && common < prev_len && p[common] == prev[common])
			common++;
		for (uint32_t i = common; i < len; i++) {
			uint32_t node = (uint32_t)t->n_nodes++;
			t->parent[node] = path[i];
			t->inbyte[node] = p[i];
			t->depth[node] = i + 1;
			t->terminal[node] = AC_NONE;
			path[i + 1] = node;
		}
		if (t->terminal[path[len]] == AC_NONE)
			t->terminal[path[len]] = refs[k].id;
		prev = p;
		prev_len = len;
	}
	table_free(path);
	return 0;
}

ac_automaton *ac_new(unsigned flags)
{
	ac_automaton *ac = calloc(1, sizeof *ac);
	if (ac)
		ac->flags = flags;
	return ac;
}

int ac_add(ac_automaton *ac, const void *p, size_t len)
{
	uint32_t id = ac->n_patterns;
	if (ac->compiled || id == AC_NONE || len > AC_ID_MASK)
		return -1;
	if (len == 0) {
		if (!ac->has_empty)
			ac->empty_id = id;
		ac->has_empty = true;
		ac->n_patterns++;
		return 0;
	}
	if (ac->pat_used + len > ac->pat_cap) {
		size_t cap = ac->pat_cap ? ac->pat_cap : 4096;
		while (cap < ac->pat_used + len)
			cap *= 2;
		uint8_t *b = realloc(ac->pat_bytes, cap);
		if (!b)
			return -1;
		ac->pat_bytes = b;
		ac->pat_cap = cap;
	}
	if (ac->n_refs == ac->refs_cap) {
		size_t cap = ac->refs_cap ? ac->refs_cap * 2 : 256;
		struct pattern_ref *r = grow(ac->refs, cap, sizeof *r);
		if (!r)
			return -1;
		ac->refs = r;
		ac->refs_cap = cap;
	}
	uint8_t *dst = ac->pat_bytes + ac->pat_used;
	const uint8_t *src = p;
	for (size_t i = 0; i < len; i++)
		dst[i] = (ac->flags & AC_FOLD_ASCII) ? fold_ascii(src[i]) : src[i];
	ac->refs[ac->n_refs++] = (struct pattern_ref){ ac->pat_used, (uint32_t)len, id };
	ac->pat_used += len;
	if (len > ac->max_len)
		ac->max_len = len;
	if (!ac->min_len || len < ac->min_len)
		ac->min_len = len;
	ac->n_patterns++;
	return 0;
}

static void patterns_free(ac_automaton *ac)
{
	free(ac->pat_bytes);
	free(ac->refs);
	ac->pat_bytes = NULL;
	ac->refs = NULL;
	ac->pat_used = ac->pat_cap = ac->n_refs = ac->refs_cap = 0;
}

/* ---- compile ------------------------------------------------------------ */

/* Renumbers the trie breadth-first.  Children of one node then have
 * consecutive ids, so first[s]..first[s+1]-1 are the children of s (in byte
 * order) and the edge into a state is described by the state itself. */
static int bfs_renumber(struct ac_trie *t, uint32_t **first_out)
{
	size_t n = t->n_nodes;
	uint32_t *cfirst = table_alloc((n + 1) * sizeof *cfirst); /* children CSR, old ids */
	uint32_t *cnode = table_alloc(n * sizeof *cnode);
	uint32_t *by_byte = table_alloc(n * sizeof *by_byte);
	uint32_t *order = table_alloc(n * sizeof *order);
	uint32_t *first = table_alloc((n + 1) * sizeof *first);
	struct ac_trie bt = { NULL, NULL, NULL, NULL, n };
	bt.parent = NULL;
	bt.terminal = table_alloc(n * sizeof *bt.terminal);
	bt.depth = table_alloc(n * sizeof *bt.depth);
	bt.inbyte = table_alloc(n);
	int rc = -1;
	if (!cfirst || !cnode || !by_byte || !order || !first || !bt.terminal || !bt.depth || !bt.inbyte)
		goto out;
	/* Counting sort by byte, then a stable distribution by parent. */
	uint32_t start[257] = { 0 };
	for (size_t i = 1; i < n; i++)
		start[t->inbyte[i] + 1]++;
	for (int b = 0; b < 256; b++)
		start[b + 1] += start[b];
	for (size_t i = 1; i < n; i++)
		by_byte[start[t->inbyte[i]]++] = (uint32_t)i;
	for (size_t i = 1; i < n; i++)
		cfirst[t->parent[i] + 1]++;
	for (size_t i = 0; i < n; i++)
		cfirst[i + 1] += cfirst[i];
	for (size_t k = 0; k + 1 < n; k++) { /* cfirst[p] advances as p fills */
		uint32_t c = by_byte[k];
		cnode[cfirst[t->parent[c]]++] = c;
	}
	for (size_t i = n; i > 0; i--) /* undo the cursor advance */
		cfirst[i] = cfirst[i - 1];
	cfirst[0] = 0;
	size_t tail = 1;
	order[0] = AC_ROOT;
	for (size_t k = 0; k < n; k++) {
		uint32_t u = order[k];
		first[k] = (uint32_t)tail;
		for (uint32_t i = cfirst[u]; i < cfirst[u + 1]; i++)
			order[tail++] = cnode[i];
		bt.terminal[k] = t->terminal[u];
		bt.depth[k] = t->depth[u];
		bt.inbyte[k] = t->inbyte[u];
	}
	first[n] = (uint32_t)n;
	trie_free(t);
	*t = bt;
	*first_out = first;
	first = NULL;
	bt.terminal = NULL;
	bt.depth = NULL;
	bt.inbyte = NULL;
	rc = 0;
out:
	table_free(cfirst);
	table_free(cnode);
	table_free(by_byte);
	table_free(order);
	table_free(first);
	table_free(bt.terminal);
	table_free(bt.depth);
	table_free(bt.inbyte);
	return rc;
}

static void classes_build(ac_automaton *ac)
{
	bool used[256] = { false };
	for (size_t i = 1; i < ac->trie.n_nodes; i++)
		used[ac->trie.inbyte[i]] = true;
	uint32_t k = 1; /* class 0: bytes in no pattern */
	memset(ac->cls, 0, sizeof ac->cls);
	for (int b = 0; b < 256; b++)
		if (used[b])
			ac->cls[b] = (uint8_t)k++;
	if (ac->flags & AC_FOLD_ASCII)
		for (int b = 'A'; b <= 'Z'; b++)
			ac->cls[b] = ac->cls[b + 32];
	ac->n_classes = k;
	ac->class_shift = 0;
	while ((1u << ac->class_shift) < k)
		ac->class_shift++;
}

/* Marks b0 (and its other case when folding) followed by b1 (any byte when
 * b1 < 0) as a possible start of a match in the prefilter tables. */
static void mark_start(ac_automaton *ac, uint8_t b0, int b1)
{
	uint8_t v0[2] = { b0, b0 }, v1[2];
	if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter(b0))
		v0[1] = (uint8_t)(b0 ^ 0x20);
	for (int i = 0; i < 2; i++) {
		ac->first_byte[v0[i]] = 1;
		if (b1 < 0) {
			for (int x = 0; x < 4; x++)
				ac->pair[v0[i] * 4 + x] = ~UINT64_C(0);
			continue;
		}
		v1[0] = v1[1] = (uint8_t)b1;
		if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter((uint8_t)b1))
			v1[1] = (uint8_t)(b1 ^ 0x20);
		for (int j = 0; j < 2; j++) {
			unsigned idx = (unsigned)v0[i] << 8 | v1[j];
			ac->pair[idx >> 6] |= UINT64_C(1) << (idx & 63);
		}
	}
}

/* Chooses the scan path and fills the prefilter tables. */
static void prefilter_build(ac_automaton *ac, enum ac_scan_path want)
{
	const struct ac_trie *t = &ac->trie;
	const uint32_t *first = ac->first;
	memset(ac->pair, 0, sizeof ac->pair);
	memset(ac->first_byte, 0, sizeof ac->first_byte);
	for (uint32_t c = first[AC_ROOT]; c < first[AC_ROOT + 1]; c++) {
		if (t->terminal[c] != AC_NONE)
			mark_start(ac, t->inbyte[c], -1);
		for (uint32_t g = first[c]; g < first[c + 1]; g++)
			mark_start(ac, t->inbyte[c], t->inbyte[g]);
	}
	/* memchr needs one byte at a fixed offset in every match: true when the
	 * trie is a single chain, up to the shortest pattern's length. */
	bool chain = t->n_nodes > 1 && t->n_nodes - 1 == ac->max_len;
	int best = -1;
	uint32_t node = AC_ROOT;
	for (uint32_t off = 0; chain && off < ac->min_len; off++) {
		node = first[node];
		uint8_t b = t->inbyte[node];
		if ((ac->flags & AC_FOLD_ASCII) && is_ascii_letter(b))
			continue;
		if (best < 0 || byte_rank[b] < byte_rank[ac->rare_byte]) {
			best = (int)off;
			ac->rare_byte = b;
			ac->rare_offset = off;
		}
	}
	if (want == AC_PATH_AUTO)
		want = best >= 0 ? AC_PATH_MEMCHR : AC_PATH_BITMAP;
	if (want == AC_PATH_MEMCHR && best < 0)
		want = AC_PATH_BITMAP;
	if (t->n_nodes == 1) /* only empty patterns, or none: nothing to skip to */
		want = AC_PATH_DFA;
	ac->path = want;
}

/* The transition from s on byte b, over the tables built so far: sparse
 * states by their children and failure links, dense ones by their row. */
static uint32_t build_delta(const ac_automaton *ac, uint32_t s, uint8_t b)
{
	uint8_t c = ac->cls[b];
	while (s >= ac->n_dense) {
		for (uint32_t k = ac->first[s]; k < ac->first[s + 1]; k++)
			if (ac->in_cls[k] == c)
				return k;
		s = ac->fail[s];
	}
	return ac->dense[((size_t)s << ac->class_shift) | c] & AC_ID_MASK;
}

/* One breadth-first pass: failure and output links of each state's children,
 * then the state's dense row (its failure state's row, children overlaid). */
static int links_and_tables_build(ac_automaton *ac)
{
	const struct ac_trie *t = &ac->trie;
	size_t n = t->n_nodes, width = (size_t)1 << ac->class_shift;
	size_t fit = AC_DENSE_BUDGET / (width * sizeof(uint32_t));
	ac->n_states = (uint32_t)n;
	ac->n_dense = (uint32_t)(n < fit ? n : (fit ? fit : 1));
	ac->dense = table_alloc((size_t)ac->n_dense * width * sizeof *ac->dense);
	ac->fail = table_alloc(n * sizeof *ac->fail);
	ac->in_cls = table_alloc(n);
	ac->out_len = table_alloc(n * sizeof *ac->out_len);
	ac->out_id = table_alloc(n * sizeof *ac->out_id);
	ac->dict = table_alloc(n * sizeof *ac->dict);
	if (!ac->dense || !ac->fail || !ac->in_cls || !ac->out_len || !ac->out_id || !ac->dict)
		return -1;
	for (size_t k = 0; k < n; k++)
		ac->in_cls[k] = ac->cls[t->inbyte[k]];
	ac->fail[AC_ROOT] = AC_ROOT;
	ac->out_len[AC_ROOT] = 0;
	ac->out_id[AC_ROOT] = AC_NONE;
	ac->dict[AC_ROOT] = AC_NONE;
	for (uint32_t s = 0; s < n; s++) {
		for (uint32_t c = ac->first[s]; c < ac->first[s + 1]; c++) {
			uint32_t f = s == AC_ROOT ? AC_ROOT : build_delta(ac, ac->fail[s], t->inbyte[c]);
			bool term = t->terminal[c] != AC_NONE;
			ac->fail[c] = f;
			ac->out_len[c] = term ? t->depth[c] : ac->out_len[f];
			ac->out_id[c] = term ? t->terminal[c] : ac->out_id[f];
			ac->dict[c] = f == AC_ROOT ? AC_NONE : t->terminal[f] != AC_NONE ? f : ac->dict[f];
		}
		if (s >= ac->n_dense)
			continue;
		uint32_t *row = ac->dense + ((size_t)s << ac->class_shift);
		if (s != AC_ROOT)
			memcpy(row, ac->dense + ((size_t)ac->fail[s] << ac->class_shift), width * sizeof *row);
		for (uint32_t c = ac->first[s]; c < ac->first[s + 1]; c++)
			row[ac->in_cls[c]] = c | (ac->out_len[c] ? AC_MATCH_BIT : 0);
	}
	ac->memory = sizeof *ac + (size_t)ac->n_dense * width * 4 + n * 21;
	return 0;
}

int ac_compile(ac_automaton *ac, enum ac_scan_path path)
{
	int rc = -1;
	if (ac->compiled)
		return -1;
	if (trie_build(ac) != 0)
		goto out;
	patterns_free(ac);
	if (bfs_renumber(&ac->trie, &ac->first) != 0)
		goto out;
	classes_build(ac);
	prefilter_build(ac, path);
	if (links_and_tables_build(ac) != 0)
		goto out;
	ac->compiled = true;
	rc = 0;
out:
	trie_free(&ac->trie);
	patterns_free(ac);
	return rc;
}

enum ac_scan_path ac_scan_path_used(const ac_automaton *ac)
{
	return ac->path;
}

size_t ac_state_count(const ac_automaton *ac)
{
	return ac->n_states;
}

size_t ac_max_pattern_len(const ac_automaton *ac)
{
	return ac->max_len;
}

size_t ac_memory_bytes(const ac_automaton *ac)
{
	return ac->memory;
}

void ac_free(ac_automaton *ac)
{
	if (!ac)
		return;
	trie_free(&ac->trie);
	patterns_free(ac);
	table_free(ac->dense);
	table_free(ac->first);
	table_free(ac->in_cls);
	table_free(ac->fail);
	table_free(ac->out_len);
	table_free(ac->out_id);
	table_free(ac->dict);
	free(ac);
}
