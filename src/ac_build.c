/* ac_build.c - compiling fixed strings into an Aho-Corasick automaton.
 *
 * Owns: ac_compile's order of work, failure and output links, byte classes
 * and the dense/sparse transition tables.  The pattern store and the
 * breadth-first trie are ac_trie.c's, the prefilter is ac_prefilter.c's.
 * Knows nothing of files, lines or options.
 *
 * References:
 *   A. V. Aho and M. J. Corasick, "Efficient string matching: an aid to
 *   bibliographic search", CACM 18(6), 1975 - goto, failure and output
 *   functions, and their conversion to a DFA (section 6).
 */
#include "ac_internal.h"
#include "ac_trie.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of dense transition rows we allow before deeper states go sparse. */
#define AC_DENSE_BUDGET (8u << 20)
/* ... at least this much; and at most 1/AC_DENSE_SHARE of the sparse tables. */
#define AC_DENSE_MIN (512u << 10)
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
	ac->class_shift = 0;
	while ((1u << ac->class_shift) < k)
		ac->class_shift++;
}

/* Bytes of dense rows for n_states states: a small set gets up to
 * AC_DENSE_BUDGET (often a whole DFA); a large one no more than
 * 1/AC_DENSE_SHARE of its sparse tables, since its rows are only the
 * shallowest states while its memory is mostly the sparse tables (and
 * measured scans did not slow down: docs/perf.md); never under AC_DENSE_MIN. */
static size_t dense_budget(size_t n_states)
{
	size_t share = n_states * AC_STATE_BYTES / AC_DENSE_SHARE;
	return share > AC_DENSE_BUDGET ? AC_DENSE_BUDGET : share < AC_DENSE_MIN ? AC_DENSE_MIN : share;
}

/* The transition from s on class c, over the tables built so far: sparse
 * states by their children and failure links, dense ones by their row. */
static uint32_t build_delta(const ac_automaton *ac, uint32_t s, uint8_t c)
{
	while (s >= ac->n_dense) {
		for (uint32_t k = ac->first[s]; k < ac->first[s + 1]; k++)
			if (ac->in_cls[k] == c)
				return k;
		s = ac->fail[s];
	}
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

/* Automata of this many states and more are linked on two threads. */
#define PARALLEL_LINKS 65536
/* ... a depth with fewer states than this is linked by part 0 alone. */
#define PARALLEL_DEPTH 4096

struct link_part {
	ac_automaton *ac;
	size_t width;
	unsigned part, parts;
	pthread_barrier_t *barrier; /* between depths when parts > 1 */
};

/* Links depth by depth (the states of depth d are the ids first[L(d-1)]
 * up to first[L(d)], ids being breadth-first), taking the part-th of each
 * depth's states, and waits for the other parts after each depth. */
static void *link_depths(void *arg)
{
	const struct link_part *lp = arg;
	ac_automaton *ac = lp->ac;
	for (uint32_t lo = AC_ROOT, hi = AC_ROOT + 1; lo < hi; lo = hi, hi = ac->first[lo]) {
		uint32_t n = hi - lo, from = lo, to = hi;
		if (lp->parts > 1 && n >= PARALLEL_DEPTH) {
			from = lo + (uint32_t)((uint64_t)n * lp->part / lp->parts);
			to = lo + (uint32_t)((uint64_t)n * (lp->part + 1) / lp->parts);
		} else if (lp->part > 0) {
			from = to = lo;
		}
		for (uint32_t s = from; s < to; s++)
			link_children(ac, s, lp->width);
		if (lp->parts > 1)
			pthread_barrier_wait(lp->barrier);
	}
	return NULL;
}

/* Failure links, outputs and dense rows of every state, on two threads for
 * a large automaton (ac->threads allowing).  A state without its own
 * pattern inherits its failure state's output; the AC_OWN_BIT marks (which
 * dict needs) are cleared at the end. */
static int links_and_tables_build(ac_automaton *ac)
{
	size_t n = ac->n_states, width = (size_t)1 << ac->class_shift;
	size_t fit = dense_budget(n) / (width * sizeof(uint32_t));
	ac->n_dense = (uint32_t)(n < fit ? n : (fit ? fit : 1));
	ac->dense = ac_table_alloc((size_t)ac->n_dense * width * sizeof *ac->dense);
	ac->fail = ac_table_alloc(n * sizeof *ac->fail);
	ac->dict = ac_table_alloc(n * sizeof *ac->dict);
	if (!ac->dense || !ac->fail || !ac->dict)
		return -1;
	ac->fail[AC_ROOT] = AC_ROOT;
	ac->dict[AC_ROOT] = AC_NONE;
	pthread_barrier_t barrier;
	struct link_part main_part = { ac, width, 0, 1, &barrier }, other = main_part;
	pthread_t helper;
	if (ac->threads >= 2 && n >= PARALLEL_LINKS && pthread_barrier_init(&barrier, NULL, 2) == 0) {
		main_part.parts = other.parts = 2;
		other.part = 1;
		if (pthread_create(&helper, NULL, link_depths, &other) != 0) {
			pthread_barrier_destroy(&barrier);
			main_part.parts = 1;
		}
	}
	link_depths(&main_part);
	if (main_part.parts > 1) {
		pthread_join(helper, NULL);
		pthread_barrier_destroy(&barrier);
	}
	for (size_t s = 0; s < n; s++)
		ac->out_len[s] &= ~AC_OWN_BIT;
	ac->memory = sizeof *ac + (size_t)ac->n_dense * width * 4 + n * AC_STATE_BYTES + 4;
	return 0;
}

/* Frees the state tables (after a failed compile, or in ac_free). */
static void tables_free(ac_automaton *ac)
{
	ac_table_free(ac->dense);
	ac_table_free(ac->first);
	ac_table_free(ac->in_cls);
	ac_table_free(ac->fail);
	ac_table_free(ac->out_len);
	ac_table_free(ac->out_id);
	ac_table_free(ac->dict);
	ac->dense = ac->first = ac->fail = ac->out_len = ac->out_id = ac->dict = NULL;
	ac->in_cls = NULL;
	ac->n_states = ac->n_dense = 0;
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
	for (size_t k = 1; k < ac->n_states; k++) /* edge bytes become classes */
		ac->in_cls[k] = ac->cls[ac->in_cls[k]];
	memset(&ac->trie, 0, sizeof ac->trie);
	if (links_and_tables_build(ac) != 0)
		goto out;
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

void ac_limit_simd(ac_automaton *ac, enum ac_simd cap)
{
	ac->simd_cap = cap;
}

void ac_set_threads(ac_automaton *ac, unsigned threads)
{
	ac->threads = threads;
}

enum ac_simd ac_simd_used(const ac_automaton *ac)
{
	return (enum ac_simd)(AC_SIMD_SCALAR + ac->simd);
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
	ac_store_free(ac);
	tables_free(ac);
	free(ac);
}
