/* search.c - one input, from windows of whole lines to selected lines.
 *
 * Follows GNU grep 3.8's rules (see search.h): a selected line is a line
 * with a match (or without one under -v); context lines are printed with
 * '-', groups that are not adjacent are parted by the group separator
 * (whenever -A/-B/-C was given, even as 0); after -m NUM selected lines the
 * trailing context is still printed.  A NUL byte makes the input binary
 * from its window on: output stops, NUL also ends lines, and a selected
 * line earns "binary file matches" on stderr (printed by main).
 */
#include "search.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__) && !defined(ACGREP_NO_SIMD)
#include <emmintrin.h>
#endif

/* What a search has decided up to a line end: after a SIGBUS (a mapped
 * file shrank) the search goes back to it and reads on from there with
 * read() (input_reread_from), as if the lines after it had never been
 * looked at.  Taken after each line printed or selected in a mapped window
 * (read() windows cannot fault), and at the start and after each window. */
struct checkpoint {
	uint64_t at;          /* input offset: the lines before it are done */
	uint64_t out_pos;     /* printer_position there */
	uint64_t lastout, stop_offset;
	intmax_t selected, outleft, pending;
	intmax_t lines;       /* -n: line terminators before `at` */
	bool done, run_open, used, encoding_error;
};

struct file_search {
	const struct config *cfg;
	struct searcher *s;
	struct printer *pr;
	char eol;
	bool zap_nul;        /* binary: NUL ends lines too */
	bool quiet;          /* no lines are printed */
	bool stop_on_select; /* -l, -L, -q, binary: the first selected line decides */
	bool done;
	intmax_t selected, outleft, pending, selected_before_binary;
	/* the current window: new lines in buf[start..len), earlier lines
	 * kept for -B in buf[0..start); base is the input offset of buf[0] */
	const char *buf;
	size_t start, len;
	uint64_t base;
	/* line numbering: cnt_lines eols lie before buf[cnt_pos] */
	size_t cnt_pos;
	intmax_t cnt_lines;
	uint64_t lastout;    /* input offset just past the last printed line, or UINT64_MAX */
	bool run_open;       /* -v: the last window ended in a run of selected lines */
	/* a line handed out in pieces (input_stream_long_lines) goes on:
	 * it starts at input offset cont_from; cont_matched: a match in it */
	bool cont, cont_matched;
	uint64_t cont_from;
	bool used_at_start;  /* searcher.used when this input began */
	bool guarded;        /* the window is mapped: a checkpoint after each line */
	struct checkpoint ck;
	struct search_result *res;
};

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
	const uint64_t ones = UINT64_C(0x0101010101010101), low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	const uint64_t pattern = ones * (unsigned char)c;
	while (n - i >= 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		w ^= pattern; /* a zero byte where p[i..] == c */
		/* high bit set in each non-zero byte, exactly */
		uint64_t nz = (((w & low7) + low7) | w) & ~low7;
		count += 8 - (size_t)(((nz >> 7) * ones) >> 56);
		i += 8;
	}
#endif
	for (; i < n; i++)
		count += p[i] == c;
	return count;
}

/* Line number of the line starting at buf[pos], counted incrementally from
 * the last position asked about (backwards too, for kept lines). */
static intmax_t lineno_at(struct file_search *f, size_t pos)
{
	size_t lo = pos < f->cnt_pos ? pos : f->cnt_pos, hi = pos < f->cnt_pos ? f->cnt_pos : pos;
	intmax_t n = (intmax_t)count_byte(f->buf + lo, hi - lo, f->eol);
	f->cnt_lines += pos < f->cnt_pos ? -n : n;
	f->cnt_pos = pos;
	return f->cnt_lines + 1;
}

/* grep numbers the lines a selected match spans (matcher.spans_eol) as one
 * line: later numbers do not count the terminators inside [ls, le). */
static void number_as_one_line(struct file_search *f, size_t ls, size_t le)
{
	size_t inner = le - ls - (le > ls && f->buf[le - 1] == f->eol);
	lineno_at(f, le);
	f->cnt_lines -= (intmax_t)count_byte(f->buf + ls, inner, f->eol);
}

/* Everything before input offset `at` is done, `lines` line terminators
 * before it: a SIGBUS from here on goes back to this point
 * (back_to_checkpoint). */
static void keep_checkpoint(struct file_search *f, uint64_t at, intmax_t lines)
{
	f->ck = (struct checkpoint){
		.at = at,
		.out_pos = printer_position(f->pr),
		.lastout = f->lastout,
		.stop_offset = f->res->stop_offset,
		.selected = f->selected,
		.outleft = f->outleft,
		.pending = f->pending,
		.lines = lines,
		.done = f->done,
		.run_open = f->run_open,
		.used = f->s->used,
		.encoding_error = f->pr->encoding_error,
	};
}

/* keep_checkpoint after the line [ls, pos) of a mapped window (ls == pos
 * at a window's end). */
static void checkpoint(struct file_search *f, size_t ls, size_t pos)
{
	if (!f->guarded)
		return;
	intmax_t lines = 0;
	if (f->cfg->line_number && f->cnt_pos == ls) /* printing it counted up to ls */
		lines = f->cnt_lines + (pos > ls && f->buf[pos - 1] == f->eol);
	else if (f->cfg->line_number)
		lines = lineno_at(f, pos) - 1;
	keep_checkpoint(f, f->base + pos, lines);
}

/* After a SIGBUS: the output printed since the last checkpoint is taken
 * back, the state goes back to it, and the input goes on with read() from
 * there.  False when that output was handed on already (a line longer
 * than what the printer holds was being copied), or the input cannot be
 * read on; the search then ends as the file shrank. */
static bool back_to_checkpoint(struct file_search *f, struct input *in)
{
	const struct checkpoint *c = &f->ck;
	if (!in->mapped || !printer_rewind(f->pr, c->out_pos) || input_reread_from(in, c->at) != 0)
		return false;
	f->lastout = c->lastout;
	f->res->stop_offset = c->stop_offset;
	f->selected = c->selected;
	f->outleft = c->outleft;
	f->pending = c->pending;
	f->cnt_lines = c->lines; /* cnt_pos: the next window's start */
	f->done = c->done;
	f->run_open = c->run_open;
	f->s->used = c->used;
	f->pr->encoding_error = c->encoding_error;
	f->guarded = false;
	return true;
}

/* Prints a line; false when it was suppressed (encoding error), in which
 * case, as in grep, it does not count as output for adjacency. */
static bool print_window_line(struct file_search *f, size_t ls, size_t le, char sep)
{
	struct line_pos pos = { f->cfg->line_number ? lineno_at(f, ls) : 0, f->base + ls };
	if (!print_line(f->pr, f->buf + ls, le - ls, pos, sep))
		return false;
	f->lastout = f->base + le;
	return true;
}

/* Prints pending after-context lines that start before window position upto. */
static void flush_pending(struct file_search *f, size_t upto)
{
	if (f->lastout == UINT64_MAX) /* as grep's prpending: from the buffer start */
		f->lastout = f->base + f->start;
	size_t p = f->lastout != UINT64_MAX && f->lastout > f->base + f->start ? f->lastout - f->base : f->start;
	while (f->pending > 0 && p < upto && p < f->len) {
		size_t le = line_end(f, p);
		if (!print_window_line(f, p, le, SEP_CONTEXT)) {
			f->pending = 0; /* grep retries the same line until pending runs out */
			return;
		}
		f->pending--;
		checkpoint(f, p, le);
		p = le;
	}
}

static bool context_on(const struct config *cfg)
{
	return cfg->before >= 0 || cfg->after >= 0;
}

/* Was anything output before this selected line's group (in this input, or
 * in earlier ones)? */
static bool output_before(struct file_search *f)
{
	if (f->s->used)
		return true;
	return f->s->output_before && f->s->output_before(f->s->output_before_ctx);
}

/* Prints the before-context of the selected line at buffer position ls,
 * preceded by the group separator when the output is not adjacent. */
static void print_before(struct file_search *f, size_t ls)
{
	const struct config *cfg = f->cfg;
	size_t lo = f->lastout != UINT64_MAX && f->lastout > f->base ? f->lastout - f->base : 0;
	size_t p = ls;
	for (intmax_t n = 0; n < cfg->before && p > lo; n++)
		p = line_start(f, lo, p - 1);
	if (context_on(cfg) && f->base + p != f->lastout && cfg->group_separator && output_before(f))
		print_group_separator(f->pr);
	while (p < ls) {
		size_t le = line_end(f, p);
		print_window_line(f, p, le, SEP_CONTEXT);
		checkpoint(f, p, le); /* select_line counts the line after this */
		p = le;
	}
}

/* count_line_matches' tally over one line ending at `le`. */
struct match_tally {
	const struct file_search *f;
	size_t le;
	intmax_t n;
};

static int tally_match(size_t ms, size_t me, void *ctx)
{
	struct match_tally *t = ctx;
	if (ms >= t->le || (ms == me && (ms + 1 >= t->le || is_eol(t->f, t->f->buf[ms]))))
		return 1;
	t->n += me > ms;
	return 0;
}

/* Counts the non-empty leftmost-longest matches in a line (--count-matches). */
static intmax_t count_line_matches(const struct file_search *f, size_t ls, size_t le)
{
	struct match_tally t = { f, le, 0 };
	matcher_each(f->s->matcher, f->buf, le, ls, tally_match, &t);
	return t.n;
}

/* Selects the line [ls, le).  With -v grep prints each run of selected
 * lines between two matching ones in one go: leading context and a group
 * separator come only before the run's first line (run_start), which
 * matters when a line of the run was suppressed (encoding error). */
static void select_line(struct file_search *f, size_t ls, size_t le, bool run_start)
{
	const struct config *cfg = f->cfg;
	/* printed before it is counted: a checkpoint between its context
	 * lines (print_before) must not hold the count */
	intmax_t n = cfg->count_matches && !cfg->invert ? count_line_matches(f, ls, le) : 1;
	if (!f->quiet) {
		if (context_on(cfg) && run_start)
			print_before(f, ls);
		/* Even when the line is suppressed (encoding error), grep 3.8
		 * starts its after-context and counts it as output. */
		print_window_line(f, ls, le, SEP_SELECTED);
		f->pending = cfg->after > 0 ? cfg->after : 0;
	}
	f->selected += n;
	f->outleft--;
	f->s->used = true; /* as grep: even unprinted output parts groups */
	if (f->quiet && f->stop_on_select) {
		f->done = true;
		return;
	}
	if (f->outleft <= 0) {
		f->res->stop_offset = f->base + le;
		f->done = f->pending <= 0;
	}
	checkpoint(f, ls, le);
}

/* Non-selected lines before window position `to`: pending after-context. */
static void skip_lines(struct file_search *f, size_t to)
{
	if (f->pending > 0 && !f->quiet)
		flush_pending(f, to);
}

static void search_window(struct file_search *f)
{
	const struct matcher *m = f->s->matcher;
	size_t p = f->start, ms, me;
	while (p < f->len && !f->done) {
		if (f->outleft <= 0) { /* -m reached: trailing context only */
			flush_pending(f, f->len);
			f->done = f->pending <= 0;
			return;
		}
		bool found = matcher_find(m, f->buf, f->len, p, m->spans_eol, &ms, &me);
		if (found && ms == f->len && is_eol(f, f->buf[f->len - 1]))
			found = false; /* the empty "line" after the last terminator */
		size_t stop = found ? line_start(f, p, ms) : f->len;
		/* a match spanning lines selects them as one (matcher.spans_eol) */
		size_t match_last = m->spans_eol && me > ms ? me - 1 : ms;
		if (!f->cfg->invert) {
			if (!found)
				break;
			skip_lines(f, stop);
			size_t le = line_end(f, match_last);
			select_line(f, stop, le, true);
			if (m->spans_eol && f->cfg->line_number)
				number_as_one_line(f, stop, le);
			p = le;
			continue;
		}
		/* a run goes on across windows, as within one of grep's buffers,
		 * but not into a final line without terminator: grep searches
		 * that one on its own */
		for (bool run_start = !f->run_open; p < stop && !f->done && f->outleft > 0; run_start = false) {
			size_t le = line_end(f, p);
			f->run_open = true; /* for a checkpoint inside the run */
			select_line(f, p, le, run_start || !is_eol(f, f->buf[le - 1]));
			p = le;
		}
		f->run_open = !found;
		if (p < stop) /* -m ended the selection inside the run */
			continue;
		if (!found)
			break;
		size_t le = line_end(f, match_last);
		skip_lines(f, le);
		p = le;
	}
	if (!f->done)
		skip_lines(f, f->len);
}

/* Bytes of a cut-off piece's end within which a match is left to the next
 * piece (its -w context is not there yet), and bytes of context the input
 * keeps before the next piece: more than the margin, so that every match
 * is judged whole in one of them. */
static size_t piece_margin(const struct file_search *f)
{
	return f->s->matcher->longest_span + 8;
}

#define PIECE_KEEP_EXTRA 8

/* Does the part of a long line in buf[from..hi) hold a match?  Bytes before
 * `from` are context.  When the piece is cut off (!line_ends), matches
 * starting within piece_margin of hi are the next piece's to judge. */
static bool piece_has_match(const struct file_search *f, size_t from, size_t hi, bool line_ends)
{
	if (f->cfg->line_regexp)
		return false; /* a line kept in pieces is longer than any match */
	size_t ms, me;
	if (!matcher_find(f->s->matcher, f->buf, hi, from, false, &ms, &me))
		return false;
	return line_ends || ms + piece_margin(f) <= hi;
}

/* A window of a line handed out in pieces (input_stream_long_lines; only
 * for output that needs no line whole): its first line may go on from
 * earlier windows and its last one (w.partial) in later ones.  Whole lines
 * in between are searched as usual. */
static void search_pieces(struct file_search *f, bool partial, bool last)
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
		if (f->cont_matched != f->cfg->invert)
			select_line(f, f->start, le, true);
		f->start = le;
	}
	/* the whole lines end where the partial last one starts */
	size_t whole_end = partial ? line_start(f, f->start, f->len) : f->len;
	size_t len = f->len;
	f->len = whole_end;
	if (!f->done && f->start < whole_end)
		search_window(f);
	f->len = len;
	if (partial && !f->done) {
		f->cont = true;
		f->cont_from = f->base + whole_end;
		f->cont_matched = piece_has_match(f, whole_end, len, false);
	}
}

/* Whether an empty line would be selected. */
static bool empty_line_selected(const struct file_search *f)
{
	size_t ms, me;
	return matcher_find(f->s->matcher, &f->eol, 1, 0, false, &ms, &me) != f->cfg->invert;
}

/* The input turned binary: NUL ends lines from now on, output stops.  When
 * an empty line cannot be selected, reads of only NUL bytes (empty lines)
 * are skipped, and with them a sparse file's holes, as grep skips them. */
static void start_binary(struct file_search *f, struct input *in)
{
	f->zap_nul = f->eol != '\0';
	f->selected_before_binary = f->selected;
	if (!f->cfg->count && !f->cfg->count_matches) {
		f->quiet = true;
		f->stop_on_select = true;
	}
	input_zap_nul(in, !empty_line_selected(f));
}

/* -T pads -n and -b numbers to the width GNU grep uses: the digits of the
 * file's size (plus one with -n), or of INTMAX_MAX for a pipe or device. */
static int number_width(const struct input *in, bool line_number)
{
	uintmax_t v = in->is_regular ? (uintmax_t)in->size_at_open + line_number : (uintmax_t)INTMAX_MAX;
	int w = 1;
	while (v >= 10) {
		v /= 10;
		w++;
	}
	return w;
}

void search_input(struct searcher *s, struct input *in, const char *name, bool binary_from_start,
		  struct search_result *res)
{
	const struct config *cfg = s->cfg;
	struct file_search *f = calloc(1, sizeof *f);
	memset(res, 0, sizeof *res);
	res->stop_offset = UINT64_MAX;
	if (!f) {
		res->read_error = true;
		res->read_errno = 12; /* ENOMEM */
		return;
	}
	f->cfg = cfg;
	f->s = s;
	f->pr = s->pr;
	f->eol = config_eol(cfg);
	f->quiet = cfg->count || cfg->count_matches || cfg->list != LIST_NONE || cfg->quiet || s->dev_null;
	f->stop_on_select = cfg->list != LIST_NONE || cfg->quiet || s->dev_null;
	f->outleft = cfg->max_count < 0 ? INTMAX_MAX : cfg->max_count;
	f->lastout = UINT64_MAX;
	f->selected_before_binary = -1;
	f->res = res;
	s->pr->name = name;
	s->pr->number_width = cfg->initial_tab ? number_width(in, cfg->line_number) : 0;
	s->pr->encoding_error = false;
	s->pr->utf8_check = cfg->utf8_locale && cfg->binary != BINARY_TEXT;
	const volatile bool quiet_at_start = f->quiet; /* read after a SIGBUS longjmp */
	/* volatile: GCC warns that a register copy may be clobbered by the longjmp */
	const volatile bool detect_nul = cfg->binary != BINARY_TEXT && !cfg->null_data;
	volatile bool binary = false, without_match = false;
	f->used_at_start = s->used;
	/* a hole makes grep take the file as binary from its first buffer */
	if (detect_nul && (binary_from_start || input_has_hole(in))) {
		binary = true;
		if (cfg->binary == BINARY_WITHOUT_MATCH)
			without_match = true;
		else
			start_binary(f, in);
	}

	if (detect_nul && !binary)
		input_watch_nul(in);
	if (f->quiet && !cfg->count_matches && s->matcher->longest_span != SIZE_MAX) {
		size_t keep = piece_margin(f) + PIECE_KEEP_EXTRA;
		input_stream_long_lines(in, 4 * keep, keep);
	}
	if (s->pr->utf8_check && context_on(cfg) && !f->quiet)
		input_read_windows(in); /* see flush_pending */
	/* where the input stands: a mapping faulting in the first input_next */
	keep_checkpoint(f, in->mapped ? in->map_offset + in->map_pos : in->offset + in->consumed, 0);
	sigjmp_buf jb;
	if (sigsetjmp(jb, 0) && !back_to_checkpoint(f, in)) {
		res->truncated = true;
		goto finish;
	}
	input_guard_arm(&jb);
	struct window w;
	int rc;
	while (!without_match && (f->outleft > 0 || f->pending > 0)) {
		if (f->done || (s->cancel && atomic_load_explicit(s->cancel, memory_order_relaxed)) ||
		    printer_failed() || (rc = input_next(in, &w)) == 0)
			break;
		if (rc < 0) {
			res->read_error = true;
			res->read_errno = errno;
			res->read_why = input_error(in);
			break;
		}
		if (detect_nul && !binary && input_window_has_nul(in, &w)) {
			binary = true;
			if (cfg->binary == BINARY_WITHOUT_MATCH) {
				without_match = true;
				break;
			}
			/* grep drops its reads of only NULs from here on, joining
			 * the lines around them: a mapping goes on with read() */
			bool reread = in->mapped && !empty_line_selected(f) &&
				      input_reread_from(in, w.offset) == 0;
			start_binary(f, in);
			if (reread)
				continue;
		}
		f->buf = w.data - w.before;
		f->start = w.before;
		f->len = w.before + w.len;
		f->base = w.offset - w.before;
		f->cnt_pos = f->start;
		f->guarded = in->mapped;
		if (w.partial || f->cont)
			search_pieces(f, w.partial, w.last);
		else
			search_window(f);
		if (!f->done && cfg->line_number)
			lineno_at(f, f->len);
		/* also after a read() window: the next may be mapped, AUTO
		 * switching at a long line */
		f->guarded = true;
		checkpoint(f, f->len, f->len);
	}
finish:
	input_guard_disarm();
	res->selected = without_match ? 0 : f->selected;
	res->binary = binary;
	res->without_match = without_match;
	res->done = f->done || f->outleft <= 0;
	res->used = s->used && !f->used_at_start;
	/* as grep, never under -I: a line with an encoding error is then
	 * left out silently */
	res->binary_matched = !quiet_at_start && cfg->binary == BINARY_BINARY &&
			      ((binary && f->selected > f->selected_before_binary) ||
			       s->pr->encoding_error);
	free(f);
}
