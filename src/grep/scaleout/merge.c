/* SPDX-License-Identifier: MIT */
/* merge.c - --merge (see merge.h): each file of the record streams
 * printed as one run prints it, once merge_read.c has read the streams,
 * put the files in order and checked their ranges.
 *
 * A file's known lines are the union of its ranges' L records, taken in
 * offset order from one cursor per range (a heap: a range's records run
 * into its neighbours' by up to -B and -A lines); a line is selected when
 * the range that owns it (holds its start) says so, and every line no
 * record names is a line one run neither selects nor prints.  Over them
 * runs the search's context rule (search/context.h: pending after-context,
 * before-context back to the last line output, group separators where the
 * output is not adjacent, or after another file's, -m counted over the
 * whole file), line by line, with search_lines.c's -v runs, the encoding
 * check of a UTF-8 locale, -o's matches (search/match_output.h), and the
 * after-context of a selected line left out for its encoding, printed
 * from the lines of its read window (B records, records_windows.h).
 * Where the rule needs a line no record holds, the records are not a
 * search's and the merge stops (status 2).
 */
#include "merge.h"
#include "merge_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/match_output.h"
#include "records.h"
#include "scaleout_options.h"
#include "search/binary.h"
#include "search/context.h"
#include "search/search.h"
#include "search/sink.h"

#define NONE UINT64_MAX


/* ---- one file's known lines, in offset order ---- */

/* A range's records, one at a time. */
struct cursor {
	const char *p, *end;
	size_t prefix;
	struct merge_line next;
	bool has;
};

/* A known line: where, whether selected, its number, its escaped bytes. */
struct known {
	uint64_t offset, end;
	bool selected, numbered;
	intmax_t lineno;
	const char *esc;
	size_t esc_len, len;
};

/* The merge of one file. */
struct file_merge {
	struct run *r;
	const struct scaleout_options *so;
	const struct search_options *opt; /* the search's context and binary rules */
	struct merge_item **rg;  /* its ranges searched, in order */
	size_t n;
	intmax_t *base;          /* per range: lines before it, or -1 */
	struct cursor *cur;
	size_t *heap, heap_n;    /* cursors with a record left, by offset */
	uint64_t last;           /* offset of the last known line, or NONE */
	uint64_t file_end;       /* NONE when not known */
	bool may_end_early;      /* a binary file's records stop at its turn */
	struct binary_policy bin;
	struct context context;  /* the last output, -A owed, -m left */
	uint64_t run_end;        /* -v: where the run of selected lines ends */
	bool done;
	uint64_t win_start, win_end; /* one run's read window of the lines met
				    (a B record), or NONE */
	uint64_t next_start, next_end; /* a B record met, from its first line */
	struct known *win;       /* the window's lines met so far */
	size_t win_n, win_cap;
	uint64_t taken_end;      /* just past the last line taken, or NONE */
	struct known *ring;      /* the last lines met, for -B */
	size_t ring_cap, ring_n, ring_head;
	char *text;              /* a line unescaped */
	size_t text_cap;
	const char *trouble;     /* why the records cannot be merged, or NULL */
};

static void cursor_step(struct cursor *c)
{
	if ((c->has = c->p < c->end))
		c->p = merge_parse_line(c->p + c->prefix, c->end, &c->next);
}

static uint64_t key(const struct file_merge *m, size_t k)
{
	return m->cur[m->heap[k]].next.offset;
}

static void heap_push(struct file_merge *m, size_t c)
{
	size_t k = m->heap_n++;
	m->heap[k] = c;
	for (; k > 0 && key(m, (k - 1) / 2) > key(m, k); k = (k - 1) / 2) {
		size_t t = m->heap[k];
		m->heap[k] = m->heap[(k - 1) / 2];
		m->heap[(k - 1) / 2] = t;
	}
}

static size_t heap_pop(struct file_merge *m)
{
	size_t top = m->heap[0];
	m->heap[0] = m->heap[--m->heap_n];
	for (size_t k = 0;;) {
		size_t l = 2 * k + 1, s = k;
		if (l < m->heap_n && key(m, l) < key(m, s))
			s = l;
		if (l + 1 < m->heap_n && key(m, l + 1) < key(m, s))
			s = l + 1;
		if (s == k)
			break;
		size_t t = m->heap[k];
		m->heap[k] = m->heap[s];
		m->heap[s] = t;
		k = s;
	}
	return top;
}

/* The next known line: false when none is left. */
static bool next_known(struct file_merge *m, struct known *k)
{
	bool have = false;
	while (m->heap_n > 0 && (!have || key(m, 0) == k->offset)) {
		size_t c = heap_pop(m);
		const struct merge_line *ln = &m->cur[c].next;
		const struct merge_item *it = m->rg[c];
		if (ln->kind == 'B') {
			if (ln->offset != m->win_start) {
				m->next_start = ln->offset;
				m->next_end = ln->offset + ln->len;
			}
		} else if (m->last == NONE || ln->offset > m->last) {
			bool owner = it->hi == UINT64_MAX || (ln->offset >= it->lo && ln->offset < it->hi);
			bool numbered = ln->counted && m->base[c] >= 0;
			if (!have || (numbered && !k->numbered))
				*k = (struct known){
					.offset = ln->offset, .end = ln->offset + ln->len,
					.selected = have && k->selected, .numbered = numbered,
					.lineno = m->base[c] + ln->lineno,
					.esc = ln->esc, .esc_len = ln->esc_len, .len = ln->len,
				};
			k->selected |= ln->kind == 's' && owner;
			have = true;
		}
		cursor_step(&m->cur[c]);
		if (m->cur[c].has)
			heap_push(m, c);
	}
	m->last = have ? k->offset : m->last;
	return have;
}

/* The bytes of known line k (valid until the next call). */
static const char *line_text(struct file_merge *m, const struct known *k)
{
	if (k->esc_len == k->len)
		return k->esc;
	if (m->text_cap < k->len) {
		char *t = realloc(m->text, k->len);
		if (!t) {
			m->trouble = "memory exhausted";
			return NULL;
		}
		m->text = t;
		m->text_cap = k->len;
	}
	records_unescape(k->esc, k->esc_len, m->text);
	return m->text;
}

/* ---- printing, as search_lines.c decides ---- */

/* Outputs line k (under -o its matches), unless the encoding check refuses
 * it: false then, and it does not count as output. */
static bool output_line(struct file_merge *m, const struct known *k, enum sink_line_kind kind)
{
	const struct scaleout_options *so = m->so;
	const char *text = line_text(m, k);
	if (!text || (so->line_number && !k->numbered)) {
		m->trouble = m->trouble ? m->trouble : "a range's line count is missing";
		m->done = true;
		return false;
	}
	intmax_t lineno = so->line_number ? k->lineno : 0;
	if (so->only_matching) {
		struct match_output mo = {
			.matcher = m->r->searcher.matcher, .overlapping = so->overlapping,
			.invert = so->invert, .eol = so->eol, .bin = &m->bin,
			.sink = &m->r->searcher.sink, .lineno = lineno, .offset = k->offset, .kind = kind,
		};
		if (!match_output_line(&mo, text, k->len))
			return false;
	} else {
		if (!binary_admits_line(&m->bin, text, k->len))
			return false;
		sink_line(&m->r->searcher.sink, &(struct sink_line){
			.bytes = text, .len = k->len, .lineno = lineno, .offset = k->offset, .kind = kind,
		});
	}
	context_output(&m->context, k->end);
	return true;
}

/* A line the logic needs that no record holds: the end of a binary file's
 * output (its records stop where it turned binary), else records that no
 * search wrote. */
static void missing_line(struct file_merge *m)
{
	m->done = true;
	if (!m->may_end_early && !m->trouble)
		m->trouble = m->context.lastout == CONTEXT_NONE
				     ? "one run's output depends on its read buffers here (the first line "
				       "to print is not valid in the locale): search the file whole"
				     : "the records lack a line one run prints (not a search's records?)";
}

/* A pending after-context line, k: output when it is the next line. */
static void pending_line(struct file_merge *m, const struct known *k)
{
	if (m->context.lastout != k->offset) {
		missing_line(m);
		return;
	}
	context_after_line(&m->context, output_line(m, k, SINK_CONTEXT));
}

/* search_lines.c's flush_pending after a selected line left out for its
 * encoding (lastout is not the next line's start): the after-context it
 * started is printed from the line after the last one output, or from its
 * window's start when that is later (context_pending_from), until a line
 * is left out (the one that started it at the latest). */
static void flush_back(struct file_merge *m)
{
	if (m->win_start == NONE) {
		missing_line(m);
		return;
	}
	struct context *c = &m->context;
	uint64_t from = context_pending_from(c, m->win_start);
	size_t i = 0;
	while (i < m->win_n && m->win[i].offset < from)
		i++;
	for (; c->pending > 0 && !m->done; i++) {
		if (i == m->win_n || m->win[i].offset != from) {
			missing_line(m);
			return;
		}
		context_after_line(c, output_line(m, &m->win[i], SINK_CONTEXT));
		from = m->win[i].end;
	}
}

/* Before line k: the end of the read window of the lines before it (where
 * search.c flushes the pending after-context), and the start of k's. */
static void window_next(struct file_merge *m, const struct known *k)
{
	if (m->win_end != NONE && k->offset >= m->win_end) {
		if (m->context.pending > 0 && m->context.lastout != k->offset)
			flush_back(m);
		m->win_start = m->win_end = NONE;
		m->win_n = 0;
	}
	if (m->next_start != NONE && m->next_start <= k->offset) {
		m->win_start = m->next_start;
		m->win_end = m->next_end;
		m->next_start = NONE;
		m->win_n = 0;
	}
	if (m->win_start == NONE || m->done)
		return;
	if (m->win_n == m->win_cap) {
		size_t cap = m->win_cap ? 2 * m->win_cap : 64;
		struct known *win = realloc(m->win, cap * sizeof *win);
		if (!win) {
			m->trouble = "memory exhausted";
			m->done = true;
			return;
		}
		m->win = win;
		m->win_cap = cap;
	}
	m->win[m->win_n++] = *k;
}

static void ring_push(struct file_merge *m, const struct known *k)
{
	if (m->so->before <= 0 || m->done)
		return;
	if (m->ring_n == m->ring_cap && m->ring_cap < (uint64_t)m->so->before) {
		size_t cap = m->ring_cap ? 2 * m->ring_cap : 16;
		cap = cap < (uint64_t)m->so->before ? cap : (size_t)m->so->before;
		struct known *ring = malloc(cap * sizeof *ring);
		if (!ring) {
			m->trouble = "memory exhausted";
			m->done = true;
			return;
		}
		for (size_t i = 0; i < m->ring_n; i++)
			ring[i] = m->ring[(m->ring_head + i) % m->ring_cap];
		free(m->ring);
		m->ring = ring;
		m->ring_cap = cap;
		m->ring_head = 0;
	}
	if (m->ring_n == m->ring_cap) { /* full: the oldest goes */
		m->ring[m->ring_head] = *k;
		m->ring_head = (m->ring_head + 1) % m->ring_cap;
	} else {
		m->ring[(m->ring_head + m->ring_n++) % m->ring_cap] = *k;
	}
}

/* before_context's walk back through the ring: its newest n lines. */
struct ring_walk {
	const struct file_merge *m;
	size_t n;
};

/* The start of the line ending at `end`, the ring's next newest. */
static uint64_t ring_line_before(void *ctx, uint64_t end)
{
	struct ring_walk *w = ctx;
	const struct file_merge *m = w->m;
	const struct known *b = w->n < m->ring_n
					? &m->ring[(m->ring_head + m->ring_n - 1 - w->n) % m->ring_cap] : NULL;
	if (!b || b->end != end)
		return CONTEXT_NONE;
	w->n++;
	return b->offset;
}

/* The before-context of selected line k and the separator before it. */
static void before_context(struct file_merge *m, const struct known *k)
{
	struct ring_walk w = { .m = m, .n = 0 };
	uint64_t first = context_before_start(&m->context, m->opt, k->offset, 0, ring_line_before, &w);
	if (first == CONTEXT_NONE) {
		missing_line(m);
		return;
	}
	if (context_apart(&m->context, m->opt, first) && m->r->searcher.used)
		sink_group_break(&m->r->searcher.sink);
	for (size_t n = w.n; n > 0; n--)
		output_line(m, &m->ring[(m->ring_head + m->ring_n - n) % m->ring_cap], SINK_CONTEXT);
}

/* Whether known line k lacks its terminator. */
static bool unterminated(struct file_merge *m, const struct known *k)
{
	if (m->file_end != NONE && k->end != m->file_end)
		return false;
	const char *text = line_text(m, k);
	return text && (k->len == 0 || text[k->len - 1] != m->so->eol);
}

/* search_lines.c's select_line for k, starting a run of -v or not. */
static void select_known(struct file_merge *m, const struct known *k, bool run_start)
{
	const struct search_options *opt = m->opt;
	if (context_on(opt) && run_start)
		before_context(m, k);
	if (m->done)
		return;
	output_line(m, k, SINK_SELECTED);
	context_selected(&m->context, opt);
	m->r->searcher.used = true;
	if (context_count_selected(&m->context))
		m->done = context_finished(&m->context);
}

/* The next known line, k.  A selected line left out for its encoding
 * leaves its after-context pending with lastout behind: search.c prints it
 * at its next flush (a line not selected, a selected one but inside a run
 * of -v, the window's end), flush_back here. */
static void take_line(struct file_merge *m, const struct known *k)
{
	struct context *c = &m->context;
	window_next(m, k);
	bool run_start = !m->so->invert || m->run_end != k->offset || unterminated(m, k);
	if (c->pending > 0 && c->lastout != k->offset && (c->outleft <= 0 || !k->selected || run_start))
		flush_back(m);
	if (m->done) {
		return;
	} else if (c->outleft <= 0 || !k->selected) {
		if (c->pending > 0)
			pending_line(m, k);
		else if (c->outleft <= 0)
			m->done = true;
		m->run_end = NONE;
	} else {
		select_known(m, k, run_start);
		m->run_end = k->end;
	}
	m->taken_end = k->end;
	if (context_finished(c))
		m->done = true;
	ring_push(m, k);
}

/* ---- a file, then the run ---- */

/* Prints the lines of the file whose ranges are rg[0..n).  False when
 * out of memory. */
static bool merge_lines(struct file_merge *m)
{
	m->base = malloc(m->n * sizeof *m->base);
	m->cur = calloc(m->n, sizeof *m->cur);
	m->heap = malloc(m->n * sizeof *m->heap);
	if (!m->base || !m->cur || !m->heap)
		return false;
	intmax_t base = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct merge_item *it = m->rg[i];
		m->base[i] = base;
		base = base < 0 || it->nl < 0 ? -1 : base + it->nl;
		m->cur[i] = (struct cursor){ .p = it->lines, .end = it->lines_end, .prefix = it->prefix };
		cursor_step(&m->cur[i]);
		if (m->cur[i].has)
			heap_push(m, i);
	}
	struct known k;
	while (!m->done && next_known(m, &k))
		take_line(m, &k);
	if (!m->done && m->context.pending > 0 && m->context.lastout != m->taken_end)
		flush_back(m); /* at the end of the last window */
	return true;
}

/* The ranges of file g searched as one run would have: up to the first
 * that failed to read.  Their result, folded, in *res; returns how many. */
static size_t fold_ranges(const struct scaleout_options *so, const struct group *g,
			  struct search_result *res, bool *used)
{
	*res = (struct search_result){ .stop_offset = UINT64_MAX };
	size_t n = 0;
	while (n < g->n) {
		const struct merge_item *it = g->items[n++];
		res->selected += it->selected;
		res->binary_matched |= it->bin_matched;
		res->truncated |= it->truncated;
		*used |= it->used;
		if (it->read_errno) {
			res->read_error = true;
			res->read_errno = it->read_errno;
			res->read_why = it->why;
		}
		if (it->read_errno || it->truncated)
			break;
	}
	if (so->max_count >= 0 && res->selected > so->max_count)
		res->selected = so->max_count;
	if (g->n == 1 && g->items[0]->dropped)
		res->selected = 0;
	return n;
}

/* Prints file g (its ranges, or its open error) as one run would. */
static void merge_file(struct run *r, const struct group *g, bool show_name)
{
	const struct search_options *opt = r->searcher.opt;
	const struct scaleout_options *so = r->scaleout;
	const struct merge_item *first = g->items[0];
	r->pr.show_name = show_name;
	if (first->kind == 'O') {
		struct search_result dir = { .read_error = true, .read_errno = first->err,
					     .stop_offset = UINT64_MAX };
		if (first->err == EISDIR) /* as run_report_open, with the merge's names */
			run_report_result(r, first->name, &dir);
		else if (first->err)
			run_report_open(r, first->name, first->command_line, OPEN_FAILED, first->err);
		return;
	}
	struct search_result res;
	bool used = false;
	struct file_merge m = {
		.r = r, .so = so, .opt = opt, .rg = g->items, .last = NONE, .context = context_begin(opt),
		.run_end = NONE,
		.win_start = NONE, .win_end = NONE, .next_start = NONE, .taken_end = NONE,
		.file_end = g->items[g->n - 1]->hi == UINT64_MAX ? NONE : g->items[g->n - 1]->size,
		.may_end_early = first->binary,
	};
	m.n = fold_ranges(so, g, &res, &used);
	binary_begin(&m.bin, opt, !so->prints_lines);
	sink_begin(&r->searcher.sink, &(struct sink_begin){
		.name = first->name,
		.number_width = so->initial_tab ? search_number_width(first->size, so->line_number) : 0,
	});
	if (so->prints_lines && !merge_lines(&m))
		m.trouble = "memory exhausted";
	sink_end(&r->searcher.sink, &(struct sink_end){ .selected = res.selected });
	res.binary_matched |= binary_file_matches(&m.bin, res.selected);
	r->searcher.used |= used;
	free(m.base), free(m.cur), free(m.heap), free(m.ring), free(m.text), free(m.win);
	if (m.trouble) {
		outbuf_flush(&r->out);
		fprintf(stderr, "acgrep: %s: %s\n", first->name, m.trouble);
		r->trouble = r->stop = true;
		return;
	}
	run_report_result(r, first->name, &res);
}

void merge_run(struct run *r)
{
	const struct scaleout_options *so = r->scaleout;
	struct merge_index ix;
	struct merge_item **order = NULL;
	struct group *groups = NULL;
	size_t n = 0;
	bool ok = merge_read_all(r, &ix);
	if (ok && !(groups = merge_group_items(&ix, &order, &n))) {
		fputs("acgrep: memory exhausted\n", stderr);
		ok = false;
	}
	size_t operands = 0;
	bool listed = false;
	for (size_t i = 0; i < n; i++) {
		const struct merge_item *it = groups[i].items[0];
		if (it->kind != 'W' && !merge_check_file(&groups[i]))
			ok = false;
		operands += it->kind != 'W' && it->command_line;
		listed |= it->kind != 'W' && it->listed;
	}
	for (size_t i = 0; ok && i < n && !r->stop; i++) {
		const struct merge_item *it = groups[i].items[0];
		if (it->kind == 'W') {
			run_walk_error(it->name, it->err, r);
			continue;
		}
		bool show = so->with_filename >= 0 ? so->with_filename
			    : listed || operands > 1 || !it->command_line;
		merge_file(r, &groups[i], show);
	}
	r->trouble |= !ok;
	free(groups);
	free(order);
	merge_index_free(&ix);
}
