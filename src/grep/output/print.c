/* SPDX-License-Identifier: MIT */
/* print.c - grep-compatible output (see print.h).
 *
 * The formats follow GNU grep 3.8 byte for byte: a line head of
 * [name SEP][lineno SEP][offset SEP], SEP being ':' for selected lines and
 * '-' for context, '\0' after the name with -Z; colours as SGR sequences
 * "\33[<cap>m\33[K" ... "\33[m\33[K" taken from GREP_COLORS.
 */
#include "print.h"
#include "search/only_matching.h"

#include <string.h>

/* The separator after a line head's parts: selected lines, context lines. */
#define SEP_SELECTED ':'
#define SEP_CONTEXT '-'

/* The sink operations that are the buffer's take the printer as its
 * outbuf's owner (outbuf.h). */
_Static_assert(offsetof(struct printer, out) == 0, "a printer begins with its outbuf");

int printer_init(struct printer *pr, struct outbuf *out, const struct print_options *opt,
		 const struct matcher *m, const struct pattern_keys *keys)
{
	*pr = (struct printer){ .out = out, .opt = *opt, .matcher = m, .keys = keys };
	if (opt->show_pattern != SHOW_PATTERN_NONE && pattern_field_init(&pr->field, opt, m, keys) != 0)
		return -1;
	return 0;
}

void printer_free(struct printer *pr)
{
	pattern_field_free(&pr->field);
}

static inline void out(struct printer *pr, const void *p, size_t n)
{
	outbuf_append(pr->out, p, n);
}

static inline void out_char(struct printer *pr, char c)
{
	outbuf_char(pr->out, c);
}

static void out_str(struct printer *pr, const char *s)
{
	out(pr, s, strlen(s));
}

static bool colored(const struct printer *pr, const char *cap)
{
	return pr->opt.color && cap && *cap;
}

static void sgr_start(struct printer *pr, const char *cap)
{
	out_str(pr, "\33[");
	out_str(pr, cap);
	out_str(pr, pr->opt.colors.no_erase ? "m" : "m\33[K");
}

static void sgr_end(struct printer *pr)
{
	out_str(pr, pr->opt.colors.no_erase ? "\33[m" : "\33[m\33[K");
}

/* Writes p[0..n) wrapped in colour cap when colour is on and cap is set. */
static void out_colored(struct printer *pr, const char *cap, const void *p, size_t n)
{
	bool c = colored(pr, cap);
	if (c)
		sgr_start(pr, cap);
	out(pr, p, n);
	if (c)
		sgr_end(pr);
}

static void out_sep(struct printer *pr, char sep)
{
	out_colored(pr, pr->opt.colors.separator, &sep, 1);
}

/* "00".."99": two digits per division in put_decimal. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Writes v in decimal at o and returns the position just past it; the same
 * digits as printf's "%ju".  o must have room for DECIMAL_MAX bytes.  The
 * digits are counted first and written in place from the last, two per
 * division. */
#define DECIMAL_MAX PRINTER_DECIMAL_MAX
static inline char *put_decimal(char *o, uintmax_t v)
{
	size_t n = 1;
	for (uintmax_t t = 10; n < DECIMAL_MAX && v >= t; t *= 10)
		n++;
	char *p = o + n;
	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;
		v /= 100;
		p -= 2;
		p[0] = digit_pairs[d];
		p[1] = digit_pairs[d + 1];
	}
	if (v >= 10) {
		p[-2] = digit_pairs[v * 2];
		p[-1] = digit_pairs[v * 2 + 1];
	} else {
		p[-1] = (char)('0' + v);
	}
	return o + n;
}

char *printer_decimal(char *o, uintmax_t v)
{
	return put_decimal(o, v);
}

/* A -n or -b number, right-aligned in pr->number_width (-T) inside its colour. */
static void out_number(struct printer *pr, const char *cap, uintmax_t v)
{
	char num[2 * DECIMAL_MAX];
	char *digits = num + DECIMAL_MAX;
	size_t n = (size_t)(put_decimal(digits, v) - digits);
	while (n < (size_t)pr->number_width && digits > num) {
		*--digits = ' ';
		n++;
	}
	out_colored(pr, cap, digits, n);
}

static void out_name(struct printer *pr, const char *name)
{
	out_colored(pr, pr->opt.colors.file_name, name, strlen(name));
}

/* After the name and the pattern field: NUL with -Z, else the separator. */
static void out_name_sep(struct printer *pr, char sep)
{
	if (pr->opt.null_after_name)
		out_char(pr, '\0');
	else
		out_sep(pr, sep);
}

/* What a line head's pattern field names (pattern_field_write's line and
 * pattern), and its colour once begun. */
struct head_field {
	const char *line;
	size_t len;
	uint32_t pattern;
	struct printer *pr;
	bool started;
};

static void field_put(void *ctx, const char *p, size_t n)
{
	struct head_field *hf = ctx;
	if (n > 0 && !hf->started && colored(hf->pr, hf->pr->opt.colors.pattern))
		sgr_start(hf->pr, hf->pr->opt.colors.pattern);
	hf->started |= n > 0;
	out(hf->pr, p, n);
}

/* The [name][lineno][offset][pattern] head of a text of `len` bytes
 * (without its terminator: -T puts no tab before an empty one). */
static void line_head(struct printer *pr, size_t len, intmax_t lineno, uint64_t offset, char sep,
		      struct head_field *hf)
{
	const struct print_options *opt = &pr->opt;
	if (pr->show_name) {
		out_name(pr, pr->name);
		out_name_sep(pr, sep);
	}
	if (opt->line_number) {
		out_number(pr, opt->colors.line_number, (uintmax_t)lineno);
		out_sep(pr, sep);
	}
	if (opt->byte_offset) {
		out_number(pr, opt->colors.byte_offset, offset);
		out_sep(pr, sep);
	}
	bool with_field = opt->show_pattern != SHOW_PATTERN_NONE;
	if (with_field) {
		hf->pr = pr;
		pattern_field_write(&pr->field, hf->line, hf->len, hf->pattern, field_put, hf);
		if (hf->started && colored(pr, opt->colors.pattern))
			sgr_end(pr);
		out_name_sep(pr, sep);
	}
	/* -T: a tab before the text puts it on a tab stop, as in grep not
	 * after an empty head nor before an empty line */
	if (opt->initial_tab && (pr->show_name || opt->line_number || opt->byte_offset || with_field) &&
	    len > 0)
		out_char(pr, '\t');
}

/* line_middle's state while the matcher reports the line's matches. */
struct middle {
	struct printer *pr;
	const struct sink_line *line;
	const char *line_cap, *match_cap;
	struct printed_line printed; /* the line as only_matching.h judges it */
	size_t cur;        /* written up to here */
	size_t mid;        /* where plain text resumes after empty matches, or SIZE_MAX */
	bool eol_written;  /* the last match took the terminator (match_takes_eol) */
};

static int middle_match(const struct matcher_hit *hit, void *ctx)
{
	size_t ms = hit->start, me = hit->end;
	struct middle *md = ctx;
	struct printer *pr = md->pr;
	const struct print_options *opt = &pr->opt;
	const char *text = md->line->bytes;
	enum printed_match verdict = printed_match_judge(&md->printed, hit);
	if (verdict == PRINTED_PAST)
		return 1;
	if (verdict == PRINTED_SKIP) { /* an empty match: the matcher steps over one byte */
		if (md->mid == SIZE_MAX)
			md->mid = md->cur;
		md->cur = ms + 1;
		return 0;
	}
	/* a whole-line match takes its terminator (matcher.match_takes_eol) */
	bool with_eol = verdict == PRINTED_LAST;
	if (md->mid != SIZE_MAX) {
		md->cur = md->mid;
		md->mid = SIZE_MAX;
	}
	if (colored(pr, md->line_cap))
		sgr_start(pr, md->line_cap);
	out(pr, text + md->cur, ms - md->cur);
	bool c = colored(pr, md->match_cap);
	if (c)
		sgr_start(pr, md->match_cap);
	out(pr, text + ms, me - ms);
	if (with_eol)
		out_char(pr, opt->eol);
	if (c)
		sgr_end(pr);
	md->cur = me;
	md->eol_written = with_eol;
	return with_eol;
}

/* Colours the matches of a matching line; returns how much of the line
 * remains to be written plainly and sets *eol_written when a match wrote
 * the line's terminator. */
static size_t line_middle(struct printer *pr, const struct sink_line *line, const char *line_cap,
			  const char *match_cap, bool *eol_written)
{
	const struct print_options *opt = &pr->opt;
	size_t len = line->len;
	struct middle md = {
		.pr = pr,
		.line = line,
		.line_cap = line_cap,
		.match_cap = match_cap,
		.printed = printed_line_of(pr->matcher, line->bytes, len, opt->eol, false),
		.mid = SIZE_MAX,
	};
	printed_matches_scan(&md.printed, line->bytes, len, middle_match, &md);
	*eol_written = md.eol_written;
	if (md.eol_written)
		return len;
	return md.mid != SIZE_MAX ? md.mid : md.cur;
}

/* Writes text[from..len) in line colour, leaving the terminator (and a CR
 * before it) uncoloured, as grep does. */
static size_t line_tail(struct printer *pr, const char *text, size_t from, size_t len, const char *cap)
{
	size_t eol = len > from && text[len - 1] == pr->opt.eol;
	eol += len - eol > from && text[len - eol - 1] == '\r';
	size_t tail = len - eol - from;
	if (tail > 0) {
		sgr_start(pr, cap);
		out(pr, text + from, tail);
		sgr_end(pr);
	}
	return from + tail;
}

/* A line is complete: flushed under --line-buffered. */
static void printer_line_done(struct printer *pr)
{
	outbuf_line_done(pr->out);
}

/* print_line without colours: the head and the line are laid down
 * straight into the buffer.  Returns false when they do not fit even into
 * an empty buffer, so print_line's general path must write them. */
static bool print_plain(struct printer *pr, const struct sink_line *line, char sep)
{
	const struct print_options *opt = &pr->opt;
	const char eol = opt->eol;
	size_t len = line->len;
	size_t name_len = pr->show_name ? strlen(pr->name) : 0;
	/* name, two numbers, three separators, the line, a terminator */
	size_t need = name_len + 2 * DECIMAL_MAX + 3 + len + 1;
	/* no room without growing: the general path grows a hold, and kept
	 * output (no flush between a mapped line's search and its copy) */
	char *o = outbuf_room(pr->out, need);
	if (!o)
		return false;
	if (pr->show_name) {
		memcpy(o, pr->name, name_len);
		o += name_len;
		*o++ = opt->null_after_name ? '\0' : sep;
	}
	if (opt->line_number) {
		o = put_decimal(o, (uintmax_t)line->lineno);
		*o++ = sep;
	}
	if (opt->byte_offset) {
		o = put_decimal(o, line->offset);
		*o++ = sep;
	}
	memcpy(o, line->bytes, len);
	o += len;
	if (len == 0 || line->bytes[len - 1] != eol)
		*o++ = eol;
	outbuf_commit(pr->out, o);
	return true;
}

/* Prints a selected or context line in grep's format (never under -o:
 * print_match). */
static void print_line(struct printer *pr, const struct sink_line *line)
{
	const struct print_options *opt = &pr->opt;
	const char *text = line->bytes;
	size_t len = line->len;
	bool selected = line->kind == SINK_SELECTED;
	char sep = selected ? SEP_SELECTED : SEP_CONTEXT;
	if (!opt->color && !opt->initial_tab && opt->show_pattern == SHOW_PATTERN_NONE) {
		if (print_plain(pr, line, sep)) {
			printer_line_done(pr);
			return;
		}
		/* too long for the buffer: the general path writes it through */
	}
	const struct color_spec *cs = &opt->colors;
	bool matching = selected ^ opt->invert;
	struct head_field hf = {
		.line = matching ? text : NULL, .len = len, .pattern = MATCHER_NO_PATTERN,
	};
	line_head(pr, len - (len > 0 && text[len - 1] == opt->eol), line->lineno, line->offset, sep,
		  &hf);
	const char *line_cap = NULL, *match_cap = NULL;
	if (opt->color) {
		line_cap = (selected ^ (opt->invert && cs->reverse)) ? cs->selected_line : cs->context_line;
		match_cap = selected ? cs->selected_match : cs->context_match;
	}
	size_t done = 0;
	bool eol_written = false;
	if (matching && colored(pr, match_cap))
		done = line_middle(pr, line, line_cap, match_cap, &eol_written);
	if (colored(pr, line_cap))
		done = line_tail(pr, text, done, len, line_cap);
	if (len > done)
		out(pr, text + done, len - done);
	if (!eol_written && (len == 0 || text[len - 1] != opt->eol))
		out_char(pr, opt->eol);
	printer_line_done(pr);
}

/* Prints a match on a line of its own (-o), with the head of its line's
 * kind (':' unless -v) and its line's match colour. */
static void print_match(struct printer *pr, const struct sink_match *m)
{
	const struct print_options *opt = &pr->opt;
	const char *cap = NULL;
	if (opt->color)
		cap = m->kind == SINK_SELECTED ? opt->colors.selected_match : opt->colors.context_match;
	line_head(pr, m->len, m->lineno, m->offset, opt->invert ? SEP_CONTEXT : SEP_SELECTED,
		  &(struct head_field){ .line = NULL, .pattern = m->pattern });
	bool c = colored(pr, cap);
	if (c)
		sgr_start(pr, cap);
	out(pr, m->bytes, m->len);
	if (m->takes_eol)
		out_char(pr, opt->eol);
	if (c)
		sgr_end(pr);
	out_char(pr, opt->eol);
	printer_line_done(pr);
}

/* The group separator between non-adjacent context groups. */
static void print_group_separator(struct printer *pr)
{
	const char *sep = pr->opt.group_separator;
	out_colored(pr, pr->opt.colors.separator, sep, strlen(sep));
	out_char(pr, '\n');
}

void print_name_head(struct printer *pr, const char *name)
{
	out_name(pr, name);
	if (pr->opt.null_after_name)
		out_char(pr, '\0');
	else
		out_sep(pr, SEP_SELECTED);
}

void print_count(struct printer *pr, const char *name, intmax_t count)
{
	if (pr->show_name)
		print_name_head(pr, name);
	char num[DECIMAL_MAX + 2];
	char *e = num;
	if (count < 0) { /* never, but keep "%jd" */
		*e++ = '-';
		e = put_decimal(e, -(uintmax_t)count);
	} else {
		e = put_decimal(e, (uintmax_t)count);
	}
	*e++ = '\n';
	out(pr, num, (size_t)(e - num));
	printer_line_done(pr);
}

void print_file_name(struct printer *pr, const char *name)
{
	out_name(pr, name);
	out_char(pr, pr->opt.null_after_name ? '\0' : '\n');
	printer_line_done(pr);
}

/* ---- the printer as a sink (sink.h) ------------------------------------ */

static void on_begin(void *ctx, const struct sink_begin *begin)
{
	struct printer *pr = ctx;
	pr->name = begin->name;
	pr->number_width = begin->number_width;
}

static uint64_t on_line(void *ctx, const struct sink_line *line)
{
	print_line(ctx, line);
	return outbuf_position(outbuf_of(ctx));
}

static uint64_t on_match(void *ctx, const struct sink_match *match)
{
	print_match(ctx, match);
	return outbuf_position(outbuf_of(ctx));
}

static uint64_t on_group_break(void *ctx)
{
	print_group_separator(ctx);
	return outbuf_position(outbuf_of(ctx));
}

static void on_end(void *ctx, const struct sink_end *end)
{
	(void)ctx;
	(void)end;
}

struct sink printer_sink(struct printer *pr)
{
	static const struct sink_ops ops = {
		.begin = on_begin,
		.line = on_line,
		.match = on_match,
		.group_break = on_group_break,
		.end = on_end,
		OUTBUF_SINK_OPS(outbuf_sink_rewind),
	};
	return (struct sink){ .ops = &ops, .ctx = pr };
}
