/* SPDX-License-Identifier: MIT */
/* search_lines.c - the lines of one window: which are selected, which
 * are output as context, where groups part (see search.h).
 *
 * Follows GNU grep 3.8's rules: a selected line is a line with a match (or
 * without one under -v); context lines are output around them, as
 * context.h rules (group breaks, -m's trailing context); under -o a line's
 * matches are output instead of it (only_matching.h).  Each
 * line or match goes through the binary rule (binary.h) and then to the
 * sink; line numbers are counted here, incrementally.  A long line handed
 * out in pieces is judged here too (search_pieces).
 */
#include "bits.h"
#include "search_internal.h"
#include "match_output.h"

#include <string.h>

#if defined(__SSE2__) && !defined(ACGREP_NO_SIMD)
#include <emmintrin.h>
#endif

static bool is_eol(const struct file_search *f, char c)
{
	return c == f->eol || (f->zap_nul && c == '\0');
}

/* Start of the line containing buf[pos], not looking before lo. */
static size_t line_start(const struct file_search *f, size_t lo, size_t pos)
{
	if (!f->zap_nul) {
		const char *p = memrchr(f->buf + lo, f->eol, pos - lo);
		return p ? (size_t)(p - f->buf) + 1 : lo;
	}
	while (pos > lo && !is_eol(f, f->buf[pos - 1]))
		pos--;
	return pos;
}

/* Just past the end of the line containing pos. */
static size_t line_end(const struct file_search *f, size_t pos)
{
	if (!f->zap_nul) {
		const char *p = memchr(f->buf + pos, f->eol, f->len - pos);
		return p ? (size_t)(p - f->buf) + 1 : f->len;
	}
	while (pos < f->len && !is_eol(f, f->buf[pos]))
		pos++;
	return pos < f->len ? pos + 1 : f->len;
}

/* Number of bytes equal to c in p[0..n), without a branch per byte: with
 * SSE2 sixteen bytes per step (byte compares summed in eight-bit lanes,
 * folded with SAD every 255 steps), else eight bytes per step in a word. */
static size_t count_byte(const char *p, size_t n, char c)
{
	size_t count = 0, i = 0;
#if defined(__SSE2__) && !defined(ACGREP_NO_SIMD)
	const __m128i needle = _mm_set1_epi8(c);
	while (n - i >= 16) {
		/* a lane gains at most 4 per 64 bytes: fold before it passes 255 */
		size_t blocks = (n - i) / 64 < 63 ? (n - i) / 64 : 63;
		__m128i acc = _mm_setzero_si128();
		for (size_t k = 0; k < blocks; k++, i += 64) {
			const __m128i *q = (const __m128i *)(const void *)(p + i);
			__m128i e0 = _mm_cmpeq_epi8(_mm_loadu_si128(q), needle);
			__m128i e1 = _mm_cmpeq_epi8(_mm_loadu_si128(q + 1), needle);
			__m128i e2 = _mm_cmpeq_epi8(_mm_loadu_si128(q + 2), needle);
			__m128i e3 = _mm_cmpeq_epi8(_mm_loadu_si128(q + 3), needle);
			acc = _mm_sub_epi8(acc, _mm_add_epi8(_mm_add_epi8(e0, e1), _mm_add_epi8(e2, e3)));
		}
		if (blocks < 63) /* under 64 bytes left: up to three 16-byte steps */
			for (; n - i >= 16; i += 16) {
				__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
				acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, needle));
			}
		__m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
		count += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
	}
	if (n >= 16 && i < n) { /* the last 16 bytes, counting only the unseen r */
		static const unsigned char last_r[32] = {
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		};
		size_t r = n - i;
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
		__m128i keep = _mm_loadu_si128((const __m128i *)(const void *)(last_r + r));
		__m128i sums = _mm_sad_epu8(_mm_and_si128(_mm_cmpeq_epi8(v, needle), keep), _mm_setzero_si128());
		count += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
		i = n;
	}
#else
	for (; n - i >= 8; i += 8)
		count += bytes_equal_count(p + i, (unsigned char)c);
#endif
	for (; i < n; i++)
		count += p[i] == c;
	return count;
}

/* Line number of the line starting at buf[pos], counted incrementally from
 * the last position asked about (backwards too, for kept lines). */
intmax_t search_lineno_at(struct file_search *f, size_t pos)
{
	size_t lo = pos < f->cnt_pos ? pos : f->cnt_pos, hi = pos < f->cnt_pos ? f->cnt_pos : pos;
	intmax_t n = (intmax_t)count_byte(f->buf + lo, hi - lo, f->eol);
	f->state.cnt_lines += pos < f->cnt_pos ? -n : n;
	f->cnt_pos = pos;
	return f->state.cnt_lines + 1;
}

/* grep numbers the lines a selected match spans (matcher.spans_eol) as one
 * line: later numbers do not count the terminators inside [ls, le). */
static void number_as_one_line(struct file_search *f, size_t ls, size_t le)
{
	size_t inner = le - ls - (le > ls && f->buf[le - 1] == f->eol);
	search_lineno_at(f, le);
	f->state.cnt_lines -= (intmax_t)count_byte(f->buf + ls, inner, f->eol);
}

/* The search is done with the line [ls, le) (output, or selected): its
 * number counted past it, at the cost of a compare where counting stands
 * at its start (the line just output), and the input told. */
static inline void line_done(struct file_search *f, size_t ls, size_t le)
{
	if (f->count_lines && f->cnt_pos == ls && le > ls) {
		f->state.cnt_lines += f->buf[le - 1] == f->eol;
		f->cnt_pos = le;
	}
	input_done_to(f->in, f->base + le);
}

/* -o: the matches of the line [ls, le), when it is a matching one (a
 * selected line, or a context line under -v).  False when the binary rule
 * refused one. */
static bool output_matches(struct file_search *f, size_t ls, size_t le, enum sink_line_kind kind,
			   intmax_t lineno)
{
	struct match_output o = {
		.matcher = f->s->matcher,
		.overlapping = f->opt->overlapping,
		.invert = f->opt->invert,
		.eol = f->eol,
		.bin = &f->bin,
		.sink = f->sink,
		.lineno = lineno,
		.offset = f->base + ls,
		.kind = kind,
		.mark = f->state.out_mark,
	};
	bool admitted = match_output_line(&o, f->buf + ls, le - ls);
	f->state.out_mark = o.mark;
	search_failed(f);
	return admitted;
}

/* Outputs a line (under -o its matches), if the binary rule lets it; false
 * when it does not (an encoding error), in which case, as in grep, it does
 * not count as output for adjacency. */
static bool output_line(struct file_search *f, size_t ls, size_t le, enum sink_line_kind kind)
{
	intmax_t lineno = f->count_lines ? search_lineno_at(f, ls) : 0;
	if (f->opt->only_matching) {
		if (!output_matches(f, ls, le, kind, lineno))
			return false;
	} else {
		if (!binary_admits_line(&f->bin, f->buf + ls, le - ls))
			return false;
		struct sink_hits hits;
		f->state.out_mark = sink_line(f->sink, &(struct sink_line){
			.bytes = f->buf + ls,
			.len = le - ls,
			.lineno = lineno,
			.offset = f->base + ls,
			.kind = kind,
			.hits = kind == SINK_SELECTED && f->counting ? search_stats_hits(f, ls, le, &hits) : NULL,
		});
	}
	context_output(&f->state.context, f->base + le);
	return true;
}

/* Outputs pending after-context lines that start before window position upto. */
static void flush_pending(struct file_search *f, size_t upto)
{
	struct context *c = &f->state.context;
	size_t p = (size_t)(context_pending_from(c, f->base + f->start) - f->base);
	while (c->pending > 0 && p < upto && p < f->len) {
		size_t le = line_end(f, p);
		bool printed = output_line(f, p, le, SINK_CONTEXT);
		context_after_line(c, printed);
		if (!printed)
			return;
		line_done(f, p, le);
		p = le;
	}
}

/* Was anything output before this selected line's group (in this input, or
 * in earlier ones)? */
static bool output_before(struct file_search *f)
{
	if (f->state.used)
		return true;
	return f->s->output_before && f->s->output_before(f->s->output_before_ctx);
}

/* The start of the window's line that ends at input offset end, not
 * looking back past the last line output. */
static uint64_t window_line_before(void *ctx, uint64_t end)
{
	struct file_search *f = ctx;
	uint64_t lastout = f->state.context.lastout;
	size_t lo = lastout != CONTEXT_NONE && lastout > f->base ? (size_t)(lastout - f->base) : 0;
	return f->base + line_start(f, lo, (size_t)(end - f->base) - 1);
}

/* Outputs the before-context of the selected line at buffer position ls,
 * preceded by the group separator when the output is not adjacent. */
static void output_before_context(struct file_search *f, size_t ls)
{
	uint64_t first = context_before_start(&f->state.context, f->opt, f->base + ls, f->base,
					      window_line_before, f);
	size_t p = (size_t)(first - f->base);
	if (context_apart(&f->state.context, f->opt, first) && output_before(f))
		f->state.out_mark = sink_group_break(f->sink);
	while (p < ls) {
		size_t le = line_end(f, p);
		output_line(f, p, le, SINK_CONTEXT);
		line_done(f, p, le); /* select_line counts the line after this */
		p = le;
	}
}

/* The line [ls, le) as the summary is told of it. */
static struct summary_line summary_line_of(const struct file_search *f, size_t ls, size_t le)
{
	return (struct summary_line){
		.buf = f->buf, .ls = ls, .le = le, .eol = f->eol, .zap_nul = f->zap_nul,
	};
}

/* Selects the line [ls, le).  With -v grep prints each run of selected
 * lines between two matching ones in one go: leading context and a group
 * separator come only before the run's first line (run_start), which
 * matters when a line of the run was suppressed (encoding error). */
static void select_line(struct file_search *f, size_t ls, size_t le, bool run_start, bool spans)
{
	const struct search_options *opt = f->opt;
	if (!f->quiet) {
		if (context_on(opt) && run_start)
			output_before_context(f, ls);
		/* Even when the line is suppressed (encoding error), grep 3.8
		 * starts its after-context and counts it as output. */
		output_line(f, ls, le, SINK_SELECTED);
		context_selected(&f->state.context, opt);
	}
	/* summed up after its output: where the input is told the search is
	 * done with a context line before it (output_before_context), what
	 * the summary saves does not hold it yet */
	struct summary_line line = summary_line_of(f, ls, le);
	bool settled = summary_selected(&f->sum, &line);
	search_failed(f);
	if (spans && f->count_lines) /* numbered as one line from here on */
		number_as_one_line(f, ls, le);
	bool last = context_count_selected(&f->state.context);
	f->state.used = true; /* as grep: even unprinted output parts groups */
	if (last) /* -m's last line, settled or not: where stdin is left */
		f->state.stop_offset = f->base + le;
	if (settled) {
		f->state.done = true;
		return;
	}
	if (last)
		f->state.done = context_finished(&f->state.context);
	line_done(f, ls, le);
}

/* Non-selected lines before window position `to`: pending after-context. */
static void skip_lines(struct file_search *f, size_t to)
{
	if (f->state.context.pending > 0 && !f->quiet)
		flush_pending(f, to);
}

void search_window(struct file_search *f)
{
	const struct matcher *m = f->s->matcher;
	size_t p = f->start, ms, me;
	while (p < f->len && !f->state.done) {
		if (f->state.context.outleft <= 0) { /* -m reached: trailing context only */
			flush_pending(f, f->len);
			f->state.done = context_finished(&f->state.context);
			return;
		}
		bool found = matcher_find(m, f->buf, f->len, p, m->spans_eol, &ms, &me);
		if (!found && search_failed(f))
			return;
		if (found && ms == f->len && is_eol(f, f->buf[f->len - 1]))
			found = false; /* the empty "line" after the last terminator */
		size_t stop = found ? line_start(f, p, ms) : f->len;
		/* a match spanning lines selects them as one (matcher.spans_eol) */
		size_t match_last = m->spans_eol && me > ms ? me - 1 : ms;
		if (!f->opt->invert) {
			if (!found)
				break;
			skip_lines(f, stop);
			size_t le = line_end(f, match_last);
			select_line(f, stop, le, true, m->spans_eol);
			p = le;
			continue;
		}
		/* a run goes on across windows, as within one of grep's buffers,
		 * but not into a final line without terminator: grep searches
		 * that one on its own */
		for (bool run_start = !f->state.run_open; p < stop && !f->state.done && f->state.context.outleft > 0; run_start = false) {
			size_t le = line_end(f, p);
			f->state.run_open = true; /* for a way back inside the run */
			select_line(f, p, le, run_start || !is_eol(f, f->buf[le - 1]), false);
			p = le;
		}
		f->state.run_open = !found;
		if (p < stop) /* -m ended the selection inside the run */
			continue;
		if (!found)
			break;
		size_t le = line_end(f, match_last);
		if (f->state.context.outleft > 0) { /* -m: the lines after the last selected are not read */
			struct summary_line line = summary_line_of(f, stop, le);
			bool settled = summary_passed_over(&f->sum, &line);
			f->state.done = search_failed(f) || f->state.done || settled;
		}
		skip_lines(f, le);
		p = le;
	}
	if (!f->state.done)
		skip_lines(f, f->len);
}

/* The longest match, and room for a character of -w context after it. */
size_t search_piece_margin(const struct file_search *f)
{
	return f->s->matcher->longest_span + 8;
}

/* Does the part of a long line in buf[from..hi) hold a match?  Bytes before
 * `from` are context.  When the piece is cut off (!line_ends), matches
 * starting within search_piece_margin of hi are the next piece's to judge. */
static bool piece_has_match(struct file_search *f, size_t from, size_t hi, bool line_ends)
{
	if (f->opt->line_regexp)
		return false; /* a line kept in pieces is longer than any match */
	size_t ms, me;
	if (!matcher_find(f->s->matcher, f->buf, hi, from, false, &ms, &me)) {
		search_failed(f);
		return false;
	}
	return line_ends || ms + search_piece_margin(f) <= hi;
}

/* A window of a line handed out in pieces (input_stream_long_lines; only
 * for output that needs no line whole): its first line may go on from
 * earlier windows and its last one (w.partial) in later ones.  Whole lines
 * in between are searched as usual. */
void search_pieces(struct file_search *f, bool partial, bool last)
{
	if (f->cont && f->cont_from >= f->base) { /* the line is whole in buf after all */
		f->start = (size_t)(f->cont_from - f->base);
		f->cont = false;
	}
	if (f->cont) {
		size_t le = line_end(f, f->start);
		bool ends = is_eol(f, f->buf[le - 1]) || (last && le == f->len);
		/* position 4: a character's context before it is in buf */
		if (!f->cont_matched)
			f->cont_matched = piece_has_match(f, PIECE_KEEP_EXTRA / 2, le, ends);
		if (!ends)
			return;
		f->cont = false;
		if (f->cont_matched != f->opt->invert)
			select_line(f, f->start, le, true, false);
		f->start = le;
	}
	/* the whole lines end where the partial last one starts */
	size_t whole_end = partial ? line_start(f, f->start, f->len) : f->len;
	size_t len = f->len;
	f->len = whole_end;
	if (!f->state.done && f->start < whole_end)
		search_window(f);
	f->len = len;
	if (partial && !f->state.done) {
		f->cont = true;
		f->cont_from = f->base + whole_end;
		f->cont_matched = piece_has_match(f, whole_end, len, false);
	}
}

