/* SPDX-License-Identifier: MIT */
/* search.c - one input, window by window (see search.h).
 *
 * Owns the search of an input as a whole: its begin and end events, the
 * loop over its windows (search_lines.c searches each), the turn to binary
 * when the binary rule (binary.h) says so and what it changes here (NUL
 * ends lines, nothing more is output, reads of only NULs are dropped), the
 * long lines handed out in pieces, and what of it the input's undo log
 * saves and restores (input_undo): a search of a mapped file that shrank
 * (SIGBUS) goes back to where it last told the input it was done, and
 * the input reads on from there.
 */
#include "search_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The search's keeper (input_keeper, ctx the file_search): its line count
 * brought up to input offset `at` (f->state, which the input copies after
 * this), the summary saved, the output since kept for a restore. */
static void search_save(void *ctx, uint64_t at)
{
	struct file_search *f = ctx;
	if (f->count_lines && f->buf && at - f->base != f->cnt_pos)
		search_lineno_at(f, (size_t)(at - f->base));
	summary_save(&f->sum);
	sink_keep_from(f->sink, f->state.out_mark);
	f->state.encoding_error = f->bin.encoding_error; /* saved with the state */
}

/* f->state back as it was saved (input_undo's copy): the output since is
 * taken back, and the summary's counts.  False when that output was
 * handed on already (a line longer than what the printer holds was being
 * copied); the search then ends as the file shrank. */
static bool search_restore(void *ctx)
{
	struct file_search *f = ctx;
	if (!sink_rewind(f->sink, f->state.out_mark))
		return false;
	summary_restore(&f->sum);
	f->bin.encoding_error = f->state.encoding_error;
	f->buf = NULL; /* unmapped: nothing more is counted there */
	return true;
}

/* The window out was read() (it cannot fault): output is handed on. */
static void search_release(void *ctx)
{
	struct file_search *f = ctx;
	sink_keep_from(f->sink, SINK_KEEP_NONE);
}

/* Whether an empty line would be selected. */
static bool empty_line_selected(const struct file_search *f)
{
	size_t ms, me;
	return matcher_find(f->s->matcher, &f->eol, 1, 0, false, &ms, &me) != f->opt->invert;
}

/* The input turned binary in grep's buffer holding window w (NULL: from
 * its start): told of that, the binary rule drops the input
 * (f->bin.dropped) or says what follows.  NUL ends lines from then on, and
 * output stops as the rule says; when an empty line cannot be selected,
 * reads of only NUL bytes (empty lines) are skipped, and with them a sparse
 * file's holes, as grep skips them: a mapped window is then left for
 * read() from its start.  Returns true when w is not to be searched
 * (dropped, or to be read again). */
static bool turn_binary(struct file_search *f, struct input *in, const struct window *w)
{
	enum binary_next next = binary_nul_found(&f->bin, f->sum.selected);
	if (f->counting)
		f->binary_offset = input_first_nul(in, w ? w->offset : in->offset);
	if (next == BINARY_DROP)
		return true;
	bool skip_zero_reads = !empty_line_selected(f);
	bool reread = w && in->mapped && skip_zero_reads && input_reread_from(in, w->offset) == 0;
	f->zap_nul = f->eol != '\0';
	if (next == BINARY_STOP_QUIET) {
		f->quiet = true;
		summary_decide_on_select(&f->sum);
	}
	input_zap_nul(in, skip_zero_reads);
	return reread;
}

int search_number_width(uint64_t size, bool line_number)
{
	uintmax_t v = size == UINT64_MAX ? (uintmax_t)INTMAX_MAX : (uintmax_t)size + line_number;
	int w = 1;
	for (; v >= 10; v /= 10)
		w++;
	return w;
}

/* The state of a search of `in` by s, its begin event sent, what the
 * input is asked to do for it set up.  NULL when out of memory. */
static struct file_search *begin_search(struct searcher *s, struct input *in, const char *name,
					bool binary_from_start, struct search_result *res)
{
	const struct search_options *opt = s->opt;
	struct file_search *f = malloc(sizeof *f); /* tcache; filled whole below */
	if (!f)
		return NULL;
	bool quiet = !opt->prints_lines || opt->count_per_pattern || s->dev_null;
	*f = (struct file_search){
		.opt = opt,
		.s = s,
		.in = in,
		.sink = &s->sink,
		.eol = opt->eol,
		.quiet = quiet,
		.used_at_start = s->used,
		.res = res,
		.counting = opt->stats,
		.count_lines = opt->line_number || opt->stats,
		.binary_offset = UINT64_MAX,
		.state = { .context = context_begin(opt), .stop_offset = UINT64_MAX, .used = s->used },
	};
	struct summary_hook stats = { .selected = f->counting ? search_stats_line : NULL, .ctx = f };
	f->sum = summary_begin(opt, s->matcher, &s->memo, s->tally, stats,
			       opt->reports_files || s->dev_null);
	binary_begin(&f->bin, opt, quiet);
	input_undo_keeps(&f->undo, &f->state, sizeof f->state);
	/* first: only it may refuse */
	input_undo_calls(&f->undo, (struct input_keeper){
		.save = search_save, .restore = search_restore, .release = search_release, .ctx = f,
	});
	uint64_t size = in->is_regular ? in->size_at_open : UINT64_MAX; /* -T's width */
	sink_begin(f->sink, &(struct sink_begin){
		.name = name,
		.number_width = opt->initial_tab ? search_number_width(size, opt->line_number) : 0,
	});
	f->state.out_mark = sink_mark(f->sink);
	/* a hole makes grep take the file as binary from its first buffer */
	if (binary_watches_nul(&f->bin) && (binary_from_start || input_has_hole(in)))
		turn_binary(f, in, NULL);
	if (binary_watches_nul(&f->bin))
		input_watch_nul(in);
	/* counts of matches need a line whole (lines in pieces are not) */
	if (f->quiet && !f->sum.whole_lines && s->matcher->longest_span != SIZE_MAX) {
		size_t keep = search_piece_margin(f) + PIECE_KEEP_EXTRA;
		input_stream_long_lines(in, 4 * keep, keep);
	}
	/* the context output after a line suppressed for its encoding starts
	 * at its read()'s start, as grep's at its buffer's */
	if (f->bin.check_encoding && context_on(opt) && !f->quiet)
		input_read_windows(in);
	if (f->counting)
		search_stats_begin(f);
	return f;
}

/* Searches window w (whole lines, maybe a piece of a long one). */
static void search_one_window(struct file_search *f, const struct window *w)
{
	f->buf = w->data - w->before;
	f->start = w->before;
	f->len = w->before + w->len;
	f->base = w->offset - w->before;
	f->cnt_pos = f->start;
	if (w->partial || f->cont)
		search_pieces(f, w->partial, w->last);
	else
		search_window(f);
	if (!f->state.done && f->count_lines)
		search_lineno_at(f, f->len);
	if (f->counting)
		search_stats_window(f);
}

/* The window loop (input_read_guarded's reader, ctx the search): until
 * the input ends, the answer is known, the search is cancelled, the output
 * failed or a read fails. */
static void search_windows(void *ctx)
{
	struct file_search *f = ctx;
	struct input *in = f->in;
	const struct searcher *s = f->s;
	struct window w;
	int rc;
	while (!f->bin.dropped && !context_finished(&f->state.context)) {
		if (f->state.done || (s->cancel && atomic_load_explicit(s->cancel, memory_order_relaxed)) ||
		    sink_failed(f->sink))
			return;
		if ((rc = input_next(in, &w)) == 0) {
			f->res->lines = f->state.cnt_lines; /* every window counted */
			return;
		}
		if (rc < 0) {
			f->res->read_error = true;
			f->res->read_errno = errno;
			f->res->read_why = input_error(in);
			return;
		}
		if (binary_watches_nul(&f->bin) && input_window_has_nul(in, &w) && turn_binary(f, in, &w))
			continue; /* the loop ends when the input was dropped */
		search_one_window(f, &w);
		search_failed(f); /* a find of the printer's, or of the window's setup */
	}
}

void search_input(struct searcher *s, struct input *in, const char *name, bool binary_from_start,
		  struct search_result *res)
{
	memset(res, 0, sizeof *res);
	res->stop_offset = UINT64_MAX;
	res->lines = -1;
	struct file_search *f = begin_search(s, in, name, binary_from_start, res);
	if (!f) {
		res->read_error = true;
		res->read_errno = ENOMEM;
		return;
	}
	res->truncated = !input_read_guarded(in, &f->undo, search_windows, f);
	res->selected = binary_reported_count(&f->bin, f->sum.selected);
	res->binary = f->bin.binary;
	res->without_match = f->bin.dropped;
	res->done = f->state.done || f->state.context.outleft <= 0;
	res->stop_offset = f->state.stop_offset;
	s->used = f->state.used;
	res->used = s->used && !f->used_at_start;
	res->binary_matched = binary_file_matches(&f->bin, f->sum.selected);
	if (s->tally) {
		res->tally = tally_take(s->tally);
		if (matcher_take_failure() && !res->read_error) { /* the last counts */
			res->read_error = true;
			res->read_errno = ENOMEM;
			res->read_why = "memory exhausted";
		}
	}
	if (f->counting)
		search_stats_end(f);
	sink_end(f->sink, &(struct sink_end){
		.selected = res->selected,
		.binary = res->binary,
		.stats = f->counting ? &res->stats : NULL,
		.binary_offset = f->counting && res->binary ? f->binary_offset : UINT64_MAX,
	});
	free(f);
}
