/* SPDX-License-Identifier: MIT */
/* tally_run.c - the run's per-key bookkeeping on the main thread (see
 * tally.h): inputs in the order they are reported, each from the rows of
 * its one search or of its segments, whichever threads searched them.
 *
 * The input being reported is its rows with each key once (a dense
 * index as the searching side has, reset through its rows); FILES counts
 * it once per key however many segments the key occurred in.  The
 * summed totals are dense arrays over the keys, allocated only when the
 * rows are summed: the output may list every key (--include-zero), so
 * they are what the output needs.  Rows are printed in key order, which
 * is the order of the list (tags: of their first use), so that every
 * thread count, segment cut and I/O path prints the same bytes.
 */
#include "tally_run.h"

#include "grow.h"
#include "output/print.h"
#include "search/search.h"

#include <stdlib.h>

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* Rows taken in steps of this many, their index entries asked of memory
 * together (as tally.c's batches). */
#define STEP 64

struct tally_run {
	const struct run_options *opt;
	const struct pattern_keys *keys;
	size_t n_rows;          /* keys that are rows */
	bool per_input;         /* --count-per-pattern -H: a block per input */
	struct printer *held;   /* the printer holding the input's output, or NULL */
	/* the input being reported */
	uint32_t *index;        /* per key: 1 + its place in acc, or 0 */
	struct tally_row *acc;
	size_t n_acc, cap_acc;
	bool failed;            /* out of memory: the input's rows are not all here */
	struct tally_verdict verdict;
	/* the run's sums per key (summed rows) */
	uint64_t *matches, *lines, *files;
};

bool tally_holds_output(const struct run_options *opt)
{
	return opt->all_patterns && !opt->count_per_pattern && opt->prints_lines;
}

struct tally_run *tally_run_new(const struct run_options *opt, const struct pattern_keys *keys)
{
	struct tally_run *tr = calloc(1, sizeof *tr);
	if (!tr)
		return NULL;
	size_t n = keys->n_keys ? keys->n_keys : 1;
	*tr = (struct tally_run){
		.opt = opt,
		.keys = keys,
		.per_input = opt->with_filename == 1,
		.index = calloc(n, sizeof *tr->index),
	};
	bool sums = opt->count_per_pattern && !tr->per_input;
	if (sums) {
		tr->matches = calloc(n, sizeof *tr->matches);
		tr->lines = calloc(n, sizeof *tr->lines);
		tr->files = calloc(n, sizeof *tr->files);
	}
	if (!tr->index || (sums && (!tr->matches || !tr->lines || !tr->files))) {
		tally_run_free(tr);
		return NULL;
	}
	tr->n_rows = tally_key_rows(keys);
	return tr;
}

void tally_run_free(struct tally_run *tr)
{
	if (!tr)
		return;
	free(tr->index);
	free(tr->acc);
	free(tr->matches);
	free(tr->lines);
	free(tr->files);
	free(tr);
}

void tally_run_begin(struct tally_run *tr, struct printer *pr)
{
	if (tr && tally_holds_output(tr->opt)) {
		outbuf_hold(pr->out);
		tr->held = pr;
	}
}

/* Forgets the input's rows. */
static void clear_input(struct tally_run *tr)
{
	for (size_t i = 0; i < tr->n_acc; i++)
		tr->index[tr->acc[i].key] = 0;
	tr->n_acc = 0;
}

/* Adds one row to the input's. */
static void add_row(struct tally_run *tr, const struct tally_row *row)
{
	uint32_t i = tr->index[row->key];
	if (i == 0) {
		if (tr->n_acc == tr->cap_acc) {
			struct tally_row *acc = grow_array(tr->acc, &tr->cap_acc, tr->n_acc + 1,
							   sizeof *acc, 256);
			if (!acc) {
				tr->failed = true;
				return;
			}
			tr->acc = acc;
		}
		tr->acc[tr->n_acc] = (struct tally_row){ .key = row->key };
		i = tr->index[row->key] = (uint32_t)++tr->n_acc;
	}
	tr->acc[i - 1].matches += row->matches;
	tr->acc[i - 1].lines += row->lines;
}

void tally_run_take(struct tally_run *tr, struct search_result *res)
{
	if (!tr)
		return;
	if (res->without_match)
		clear_input(tr);
	for (size_t i = 0; i < res->tally.n && !res->without_match; i += STEP) {
		size_t n = res->tally.n - i < STEP ? res->tally.n - i : STEP;
		for (size_t k = 0; k < n; k++)
			PREFETCH(&tr->index[res->tally.row[i + k].key]);
		for (size_t k = 0; k < n; k++)
			add_row(tr, &res->tally.row[i + k]);
	}
	tally_rows_free(&res->tally);
}

bool tally_run_settled(const struct tally_run *tr, bool selected)
{
	const struct run_options *opt = tr ? tr->opt : NULL;
	return tr && opt->all_patterns && opt->reports_files && selected &&
	       tr->n_acc == tr->n_rows;
}

/* Whether key k's row is listed: with -v (count_unseen) when it did not
 * occur, else when it did or --include-zero asks for every key. */
static bool listed(const struct run_options *opt, uint64_t lines)
{
	return opt->count_unseen ? lines == 0 : lines > 0 || opt->include_zero;
}

struct tally_verdict tally_run_verdict(struct tally_run *tr, struct printer *pr,
				       struct search_result *res)
{
	if (!tr)
		return (struct tally_verdict){ .qualifies = true };
	const struct run_options *opt = tr->opt;
	tally_run_take(tr, res);
	struct tally_verdict v = {
		.qualifies = !opt->all_patterns || tr->n_acc == tr->n_rows,
		.failed = tr->failed,
	};
	if (tr->held) {
		outbuf_settle(pr->out, v.qualifies);
		tr->held = NULL;
	}
	if (opt->count_per_pattern && v.qualifies) {
		size_t seen = 0;
		for (size_t i = 0; i < tr->n_acc; i++) {
			const struct tally_row *r = &tr->acc[i];
			seen += r->lines > 0;
			if (tr->per_input)
				continue;
			tr->matches[r->key] += r->matches;
			tr->lines[r->key] += r->lines;
			tr->files[r->key] += r->lines > 0;
		}
		v.matched = tr->per_input && (opt->count_unseen ? seen < tr->n_rows : seen > 0);
	}
	tr->verdict = v;
	return v;
}

/* Writes v in decimal at o; returns the end. */
static char *put_count(char *o, uint64_t v)
{
	char digits[20];
	size_t n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*o++ = digits[--n];
	return o;
}

/* One row: [FILE:]MATCHES<TAB>LINES[<TAB>FILES]<TAB>KEY\n (file NULL:
 * the run's sums, with FILES). */
static void print_row(struct tally_run *tr, struct printer *pr, const char *file, uint32_t key,
		      uint64_t matches, uint64_t lines, uint64_t files)
{
	char nums[3 * 21];
	char *o = put_count(nums, matches);
	*o++ = '\t';
	o = put_count(o, lines);
	*o++ = '\t';
	if (!file) {
		o = put_count(o, files);
		*o++ = '\t';
	}
	if (file)
		print_name_head(pr, file);
	outbuf_append(pr->out, nums, (size_t)(o - nums));
	struct pattern name = pattern_keys_row_name(tr->keys, key);
	outbuf_append(pr->out, name.bytes, name.len);
	outbuf_char(pr->out, '\n');
	outbuf_line_done(pr->out);
}

static int by_key(const void *a, const void *b)
{
	uint32_t x = ((const struct tally_row *)a)->key, y = ((const struct tally_row *)b)->key;
	return (x > y) - (x < y);
}

/* The input's block: every row key in order where every key may be
 * listed (--include-zero, -v), else its rows sorted. */
static void print_block(struct tally_run *tr, struct printer *pr, const char *name)
{
	const struct run_options *opt = tr->opt;
	if (opt->include_zero || opt->count_unseen) {
		for (uint32_t k = 0; k < tr->keys->n_keys; k++) {
			if (!pattern_keys_is_row(tr->keys, k))
				continue;
			const struct tally_row *r = tr->index[k] ? &tr->acc[tr->index[k] - 1] : NULL;
			uint64_t lines = r ? r->lines : 0;
			if (listed(opt, lines))
				print_row(tr, pr, name, k, r ? r->matches : 0, lines, 0);
		}
		return;
	}
	if (tr->n_acc > 1) /* acc is NULL while no row is held */
		qsort(tr->acc, tr->n_acc, sizeof *tr->acc, by_key);
	for (size_t i = 0; i < tr->n_acc; i++) {
		const struct tally_row *r = &tr->acc[i];
		if (r->lines > 0)
			print_row(tr, pr, name, r->key, r->matches, r->lines, 0);
	}
}

void tally_run_report(struct tally_run *tr, struct printer *pr, const char *name)
{
	if (!tr)
		return;
	if (tr->opt->count_per_pattern && tr->per_input && tr->verdict.qualifies)
		print_block(tr, pr, name);
	clear_input(tr);
	tr->failed = false;
}

bool tally_run_finish(struct tally_run *tr, struct printer *pr)
{
	const struct run_options *opt = tr->opt;
	bool matched = false;
	if (!opt->count_per_pattern || tr->per_input)
		return false;
	for (uint32_t k = 0; k < tr->keys->n_keys; k++) {
		if (!pattern_keys_is_row(tr->keys, k) || !listed(opt, tr->lines[k]))
			continue;
		print_row(tr, pr, NULL, k, tr->matches[k], tr->lines[k], tr->files[k]);
		matched |= opt->count_unseen || tr->lines[k] > 0;
	}
	return matched;
}
