/* SPDX-License-Identifier: MIT */
/* ac_build.c - compiling fixed strings into an Aho-Corasick automaton.
 *
 * Owns: ac_compile's order of work, failure and output links, byte classes,
 * the dense/sparse transition tables, the depth table (depth_start, also
 * built by ac_load) and the multi-output bitmap (multi_out); finding a
 * pattern's id by its bytes (ac_pattern_id, the trie walked from the
 * root).
 * The pattern store and the breadth-first trie are ac_trie.c's (their
 * order ac_sort.c's), the prefilter is ac_prefilter.c's.
 * Knows nothing of files, lines or options.
 *
 * References:
 *   A. V. Aho and M. J. Corasick, "Efficient string matching: an aid to
 *   bibliographic search", CACM 18(6), 1975 - goto, failure and output
 *   functions, and their conversion to a DFA (section 6).
 */
#include "ac_internal.h"
#include "ac_trie.h"
#include "grow.h"
#include "table.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of dense rows: what dense rows and sparse tables may fill together;
 * the rows' floor and ceiling; a large set's share of its sparse tables. */
#define AC_DENSE_FOOTPRINT (5u << 20)
#define AC_DENSE_MIN (512u << 10)
#define AC_DENSE_BUDGET (8u << 20)
#define AC_DENSE_SHARE 16
/* Bytes per state outside the dense rows: first, fail, out_len, out_id,
 * dict (4 each) and in_cls (1). */
#define AC_STATE_BYTES 21

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
	ac->class0_skip = ac_class0_skip(k, ac->n_states);
	ac->class_shift = 0;
	while ((1u << ac->class_shift) < k)
		ac->class_shift++;
}

/* Bytes of dense rows for n_states states: below AC_LARGE_STATES, as much
 * as fills AC_DENSE_FOOTPRINT beside the sparse tables, so that a set of
 * up to some ten thousand words is a whole DFA or has rows several depths
 * down, where its scans stay (dict10k `-c` 17% faster than with 512 KiB of
 * rows); a large set 1/AC_DENSE_SHARE of its sparse tables, since its rows
 * are only the shallowest states while its scans visit the sparse ones
 * (docs/perf.md, "Huge pattern sets"; 30,000 dictionary words, 160,000
 * states, scanned no faster with 1.8 MiB of rows).  Never under
 * AC_DENSE_MIN nor over AC_DENSE_BUDGET.  Rows to depth 3 for dict100k
 * (half the sparse tables, 4.5 MiB) cut cachegrind's misses but not the
 * CPU time: the rows crowd the sparse states the text visits out of the
 * caches (docs/perf.md). */
static size_t dense_budget(size_t n_states)
{
	size_t sparse = n_states * AC_STATE_BYTES;
	size_t fill = n_states < AC_LARGE_STATES && sparse < AC_DENSE_FOOTPRINT ? AC_DENSE_FOOTPRINT - sparse : 0;
	size_t share = sparse / AC_DENSE_SHARE, want = fill > share ? fill : share;
	return want > AC_DENSE_BUDGET ? AC_DENSE_BUDGET : want < AC_DENSE_MIN ? AC_DENSE_MIN : want;
}

/* The states that get dense rows (classes_build has set class_shift): the
 * first ones breadth-first, as many as dense_budget holds, at least the
 * root. */
static uint32_t dense_rows(const ac_automaton *ac)
{
	size_t n = ac->n_states, fit = dense_budget(n) / (sizeof(uint32_t) << ac->class_shift);
	return (uint32_t)(n < fit ? n : (fit ? fit : 1));
}

/* The trie child of state s on class c, or AC_NONE. */
static uint32_t trie_child(const ac_automaton *ac, uint32_t s, uint32_t c)
{
	for (uint32_t k = ac->first[s]; k < ac->first[s + 1]; k++)
		if (ac->in_cls[k] == c)
			return k;
	return AC_NONE;
}

/* The transition from s on class c, over the tables built so far: sparse
 * states by their children and failure links, dense ones by their row. */
static uint32_t build_delta(const ac_automaton *ac, uint32_t s, uint8_t c)
{
	for (uint32_t k; s >= ac->n_dense; s = ac->fail[s])
		if ((k = trie_child(ac, s, c)) != AC_NONE)
			return k;
	return ac->dense[((size_t)s << ac->class_shift) | c] & AC_ID_MASK;
}

/* Failure and output links of state s's children, then s's dense row (its
 * failure state's row, children overlaid).  Needs every shallower state
 * done: states of one depth can go in any order, or on several threads. */
static void link_children(ac_automaton *ac, uint32_t s, size_t width)
{
	uint32_t *out_len = ac->out_len, *out_id = ac->out_id;
	for (uint32_t c = ac->first[s]; c < ac->first[s + 1]; c++) {
		uint32_t f = s == AC_ROOT ? AC_ROOT : build_delta(ac, ac->fail[s], ac->in_cls[c]);
		ac->fail[c] = f;
		if (!(out_len[c] & AC_OWN_BIT)) {
			out_len[c] = out_len[f] & ~AC_OWN_BIT;
			out_id[c] = out_id[f];
		}
		ac->dict[c] = f == AC_ROOT ? AC_NONE : (out_len[f] & AC_OWN_BIT) ? f : ac->dict[f];
	}
	if (s >= ac->n_dense)
		return;
	uint32_t *row = ac->dense + ((size_t)s << ac->class_shift);
	if (s != AC_ROOT)
		memcpy(row, ac->dense + ((size_t)ac->fail[s] << ac->class_shift), width * sizeof *row);
	for (uint32_t c = ac->first[s]; c < ac->first[s + 1]; c++)
		row[ac->in_cls[c]] = c | (out_len[c] ? AC_MATCH_BIT : 0);
}

/* Automata whose wide depths (below) hold this many states and more
 * together are linked on two threads. */
#define PARALLEL_LINKS 65536
/* A depth of this many states and more is wide: the two threads share it,
 * meeting before and after it.  Narrower depths are linked by the calling
 * thread alone, without meeting: a meeting (a barrier wait, which may
 * sleep) costs as much as linking dozens of states, and sharing every
 * depth would cost a meeting per state along one long pattern. */
#define PARALLEL_DEPTH 4096

/* The states of one depth: ids lo .. hi-1. */
struct depth {
	uint32_t lo, hi;
};

struct link_plan {
	ac_automaton *ac;
	size_t width;
	struct depth *wide;   /* the wide depths, shallowest first */
	size_t n_wide;
	pthread_barrier_t barrier;
	uint32_t meetings;    /* barrier waits of the calling thread */
};

/* Links the states lo .. hi-1 (one depth, or part of one). */
static void link_states(ac_automaton *ac, uint32_t lo, uint32_t hi, size_t width)
{
	for (uint32_t s = lo; s < hi; s++)
		link_children(ac, s, width);
}

/* Half `part` (0 or 1) of depth d's states. */
static void link_half(const struct link_plan *p, struct depth d, unsigned part)
{
	uint32_t mid = d.lo + (d.hi - d.lo) / 2;
	if (part == 0)
		link_states(p->ac, d.lo, mid, p->width);
	else
		link_states(p->ac, mid, d.hi, p->width);
}

/* The helper thread: the second half of each wide depth, after meeting the
 * calling thread when the depth before was not wide (it is then done), and
 * meeting it again after each (the next depth needs this one done). */
static void *link_helper(void *arg)
{
	struct link_plan *p = arg;
	for (size_t k = 0; k < p->n_wide; k++) {
		if (k == 0 || p->wide[k - 1].hi != p->wide[k].lo)
			pthread_barrier_wait(&p->barrier);
		link_half(p, p->wide[k], 1);
		pthread_barrier_wait(&p->barrier);
	}
	return NULL;
}

/* The calling thread: every depth in order (the states of depth d are the
 * ids first[L(d-1)] up to first[L(d)], ids being breadth-first), narrow
 * ones alone, wide ones halved with the helper when there is one. */
static void link_main(struct link_plan *p, bool helped)
{
	ac_automaton *ac = p->ac;
	size_t k = 0;
	bool prev_wide = false;
	for (uint32_t lo = AC_ROOT, hi = AC_ROOT + 1; lo < hi; lo = hi, hi = ac->first[lo]) {
		struct depth d = { .lo = lo, .hi = hi };
		bool wide = helped && k < p->n_wide && p->wide[k].lo == lo;
		if (!wide) {
			link_states(ac, lo, hi, p->width);
		} else {
			if (!prev_wide) {
				pthread_barrier_wait(&p->barrier);
				p->meetings++;
			}
			link_half(p, d, 0);
			pthread_barrier_wait(&p->barrier);
			p->meetings++;
			k++;
		}
		prev_wide = wide;
	}
}

/* Lists the wide depths in p->wide (NULL when none); returns the states
 * they hold together, or 0 when out of memory. */
static size_t wide_depths_find(struct link_plan *p)
{
	const uint32_t *first = p->ac->first;
	size_t n = 0, states = 0, cap = 0;
	for (uint32_t lo = AC_ROOT, hi = AC_ROOT + 1; lo < hi; lo = hi, hi = first[lo]) {
		if (hi - lo < PARALLEL_DEPTH)
			continue;
		struct depth *w = grow_array(p->wide, &cap, n + 1, sizeof *w, 64);
		if (!w)
			return 0;
		p->wide = w;
		p->wide[n++] = (struct depth){ .lo = lo, .hi = hi };
		states += hi - lo;
	}
	p->n_wide = n;
	return states;
}

/* Links every state: on two threads when ac->threads allows and the wide
 * depths hold PARALLEL_LINKS states or more, else on this one. */
static void links_run(ac_automaton *ac, size_t width)
{
	struct link_plan p = { .ac = ac, .width = width };
	pthread_t helper;
	bool helped = ac->threads >= 2 && ac->n_states >= PARALLEL_LINKS &&
		      wide_depths_find(&p) >= PARALLEL_LINKS && pthread_barrier_init(&p.barrier, NULL, 2) == 0;
	if (helped && pthread_create(&helper, NULL, link_helper, &p) != 0) {
		pthread_barrier_destroy(&p.barrier);
		helped = false;
	}
	link_main(&p, helped);
	if (helped) {
		pthread_join(helper, NULL);
		pthread_barrier_destroy(&p.barrier);
	}
	free(p.wide);
	ac->link_meetings = p.meetings;
}

/* Failure links, outputs and dense rows of every state, on two threads for
 * an automaton with enough wide depths (ac->threads allowing).  A state without its own
 * pattern inherits its failure state's output; the AC_OWN_BIT marks (which
 * dict needs) are cleared at the end. */
static int links_and_tables_build(ac_automaton *ac)
{
	size_t n = ac->n_states, width = (size_t)1 << ac->class_shift;
	ac->n_dense = dense_rows(ac);
	/* written whole: every state but the root is a child (fail, dict), and
	 * every dense row but the root's is its failure state's, overlaid */
	ac->dense = table_alloc_unzeroed((size_t)ac->n_dense * width * sizeof *ac->dense);
	ac->fail = table_alloc_unzeroed(n * sizeof *ac->fail);
	ac->dict = table_alloc_unzeroed(n * sizeof *ac->dict);
	if (!ac->dense || !ac->fail || !ac->dict)
		return -1;
	memset(ac->dense, 0, width * sizeof *ac->dense); /* the root's row: AC_ROOT */
	ac->fail[AC_ROOT] = AC_ROOT;
	ac->dict[AC_ROOT] = AC_NONE;
	links_run(ac, width);
	for (size_t s = 0; s < n; s++)
		ac->out_len[s] &= ~AC_OWN_BIT;
	ac->memory = sizeof *ac + (size_t)ac->n_dense * width * 4 + n * AC_STATE_BYTES + 4;
	return 0;
}

int ac_depths_build(ac_automaton *ac)
{
	size_t n = ac->max_len + 2;
	ac->depth_start = malloc(n * sizeof *ac->depth_start);
	if (!ac->depth_start)
		return -1;
	size_t d = 0;
	for (uint32_t lo = AC_ROOT, hi = AC_ROOT + 1; lo < hi && d < n; lo = hi, hi = ac->first[lo])
		ac->depth_start[d++] = lo;
	for (; d < n; d++)
		ac->depth_start[d] = ac->n_states;
	return 0;
}

/* Whether state s reports more than one pattern: the state reporting its
 * longest one (s itself, or dict[s] when s only inherits it) has another
 * output down its dict[] chain. */
static bool multi_output(const ac_automaton *ac, uint32_t s)
{
	uint32_t d = ac->dict[s];
	if (!ac->out_len[s] || d == AC_NONE)
		return false;
	if (ac->out_len[d] == ac->out_len[s])
		d = ac->dict[d];
	return d != AC_NONE && ac->out_len[d];
}

/* ac->multi_out, for an automaton of AC_LARGE_STATES states or more
 * (else it stays NULL): 0, or -1 when out of memory. */
static int multi_out_build(ac_automaton *ac)
{
	if (ac->n_states < AC_LARGE_STATES)
		return 0;
	ac->multi_out = calloc((ac->n_states + 63) / 64, sizeof *ac->multi_out);
	if (!ac->multi_out)
		return -1;
	for (uint32_t s = 0; s < ac->n_states; s++)
		ac->multi_out[s / 64] |= (uint64_t)multi_output(ac, s) << (s % 64);
	return 0;
}

/* Frees the state tables (after a failed compile, or in ac_free); those
 * of a loaded automaton (ac_load) are only forgotten. */
static void tables_free(ac_automaton *ac)
{
	if (ac->mapped) { /* the image's, not ours */
		ac->dense = ac->first = ac->fail = ac->out_len = ac->out_id = ac->dict = NULL;
		ac->in_cls = NULL;
	}
	table_free(ac->dense);
	table_free(ac->first);
	table_free(ac->in_cls);
	table_free(ac->fail);
	table_free(ac->out_len);
	table_free(ac->out_id);
	table_free(ac->dict);
	free(ac->depth_start);
	free(ac->multi_out);
	ac_confirm_free(ac);
	ac->depth_start = NULL;
	ac->multi_out = NULL;
	ac->dense = ac->first = ac->fail = ac->out_len = ac->out_id = ac->dict = NULL;
	ac->in_cls = NULL;
	ac->n_states = ac->n_dense = 0;
	ac_shift_free(ac);
}

int ac_compile(ac_automaton *ac, enum ac_scan_path path)
{
	int rc = -1;
	if (ac->compiled)
		return -1;
	if (ac_trie_build(ac) != 0)
		goto out;
	ac_store_free(ac);
	classes_build(ac);
	ac_prefilter_build(ac, path);
	/* sparse states search their children in turn: likely bytes first */
	if (dense_rows(ac) < ac->n_states && ac_trie_order_siblings(ac, ac_rank_table) != 0)
		goto out;
	for (size_t k = 1; k < ac->n_states; k++) /* edge bytes become classes */
		ac->in_cls[k] = ac->cls[ac->in_cls[k]];
	ac_window_kernel_derive(ac); /* from the classes of the first levels' edges */
	memset(&ac->trie, 0, sizeof ac->trie);
	if (links_and_tables_build(ac) != 0 || ac_depths_build(ac) != 0 || multi_out_build(ac) != 0)
		goto out;
	ac_confirm_build(ac);
	ac->compiled = true;
	rc = 0;
out:
	memset(&ac->trie, 0, sizeof ac->trie);
	ac_store_free(ac);
	if (rc != 0)
		tables_free(ac);
	return rc;
}

enum ac_scan_path ac_scan_path_used(const ac_automaton *ac)
{
	return ac->path;
}

void ac_limit_simd(ac_automaton *ac, enum simd_level cap)
{
	ac->simd_cap = cap;
}

void ac_set_threads(ac_automaton *ac, unsigned threads)
{
	ac->threads = threads;
}

enum simd_level ac_simd_used(const ac_automaton *ac)
{
	return ac->simd;
}

bool ac_pattern_id(const ac_automaton *ac, const void *p, size_t len, uint32_t *id)
{
	if (len == 0) {
		*id = ac->empty_id;
		return ac->has_empty;
	}
	const uint8_t *b = p;
	uint32_t s = AC_ROOT;
	for (size_t i = 0; i < len; i++) {
		uint32_t c = ac->cls[b[i]];
		if (s < ac->n_dense) {
			s = ac->dense[((size_t)s << ac->class_shift) | c] & AC_ID_MASK;
			continue;
		}
		if ((s = trie_child(ac, s, c)) == AC_NONE)
			return false; /* no child: a failure link goes shallower than i + 1 */
	}
	/* the trie's path spells p only if the state is p's own (depth len) */
	if (ac->out_len[s] != len)
		return false;
	*id = ac->out_id[s];
	return true;
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

size_t ac_link_meetings(const ac_automaton *ac)
{
	return ac->link_meetings;
}

void ac_free(ac_automaton *ac)
{
	if (!ac)
		return;
	ac_store_free(ac);
	tables_free(ac);
	free(ac);
}
