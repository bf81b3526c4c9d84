/* SPDX-License-Identifier: MIT */
/* records.c - writing the record stream (see records.h for the format),
 * and the escaping both sides share.
 *
 * Everything goes through the job's output buffer (outbuf.h), so a record
 * stream has its buffering, write-error handling and SIGBUS rewinds.
 */
#include "records.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* printf into the output; records are short but for their last field. */
__attribute__((format(printf, 2, 3)))
static void put(struct outbuf *out, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	outbuf_append(out, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void records_escaped(struct outbuf *out, const char *s, size_t len)
{
	size_t from = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\\' && s[i] != '\n')
			continue;
		outbuf_append(out, s + from, i - from);
		outbuf_append(out, s[i] == '\n' ? "\\n" : "\\\\", 2);
		from = i + 1;
	}
	outbuf_append(out, s + from, len - from);
}

size_t records_unescape(const char *esc, size_t esc_len, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < esc_len; i++) {
		if (esc[i] != '\\') {
			out[n++] = esc[i];
			continue;
		}
		if (++i == esc_len || (esc[i] != 'n' && esc[i] != '\\'))
			return SIZE_MAX;
		out[n++] = esc[i] == 'n' ? '\n' : '\\';
	}
	return n;
}

void records_header(struct outbuf *out, const char *options)
{
	put(out, "%s %d%s\n", RECORDS_MAGIC, RECORDS_VERSION, options);
}

/* A name, escaped, and the record's end. */
static void put_name(struct outbuf *out, const char *name)
{
	records_escaped(out, name, strlen(name));
	outbuf_append(out, "\n", 1);
}

void records_file(struct outbuf *out, const char *name, uint64_t lo, uint64_t hi, uint64_t size,
		  bool command_line, bool listed)
{
	char his[24] = "*", sizes[24] = "-";
	if (hi != UINT64_MAX)
		snprintf(his, sizeof his, "%" PRIu64, hi);
	if (size != UINT64_MAX)
		snprintf(sizes, sizeof sizes, "%" PRIu64, size);
	put(out, "F %" PRIu64 " %s %s %s%s%s ", lo, his, sizes, command_line ? "c" : "",
	    listed ? "l" : "", command_line || listed ? "" : "-");
	put_name(out, name);
}

void records_line(struct outbuf *out, char kind, uint64_t offset, intmax_t lineno, bool counted,
		  const char *bytes, size_t len)
{
	if (counted)
		put(out, "L %c %" PRIu64 " %jd %zu ", kind, offset, lineno, len);
	else
		put(out, "L %c %" PRIu64 " - %zu ", kind, offset, len);
	records_escaped(out, bytes, len);
	outbuf_append(out, "\n", 1);
}

void records_window(struct outbuf *out, uint64_t start, uint64_t end)
{
	put(out, "B %" PRIu64 " %" PRIu64 "\n", start, end);
}

void records_end(struct outbuf *out, const struct search_result *res, bool lines_known)
{
	char lines[24] = "-", flags[8];
	if (lines_known)
		snprintf(lines, sizeof lines, "%jd", res->lines);
	size_t n = 0;
	const bool set[] = {res->done, res->binary, res->without_match, res->binary_matched,
			    res->used, res->truncated};
	for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
		if (set[i])
			flags[n++] = "dbwmut"[i];
	if (n == 0)
		flags[n++] = '-';
	flags[n] = '\0';
	const char *why = !res->read_error ? "" : res->read_why ? res->read_why : strerror(res->read_errno);
	put(out, "E %s %jd %s %d ", lines, res->selected, flags, res->read_error ? res->read_errno : 0);
	put_name(out, why);
}

void records_not_searched(struct outbuf *out, const char *name, int err, uint64_t start,
			  uint64_t end, bool command_line, bool listed)
{
	char ends[24] = "*";
	if (end != UINT64_MAX)
		snprintf(ends, sizeof ends, "%" PRIu64, end);
	put(out, "O %d %" PRIu64 " %s %s%s%s ", err, start, ends, command_line ? "c" : "",
	    listed ? "l" : "", command_line || listed ? "" : "-");
	put_name(out, name);
}

void records_walk_error(struct outbuf *out, const char *path, int err)
{
	put(out, "W %d ", err);
	put_name(out, path);
}

void records_trailer(struct outbuf *out, uint64_t count)
{
	put(out, "Z %" PRIu64 "\n", count);
}

/* ---- the sink ---- */

/* The sink operations that are the buffer's take the sink as its outbuf's
 * owner (outbuf.h). */
_Static_assert(offsetof(struct records_sink, out) == 0, "a records sink begins with its outbuf");

static void on_begin(void *ctx, const struct sink_begin *begin)
{
	(void)ctx, (void)begin;
}

static uint64_t on_line(void *ctx, const struct sink_line *line)
{
	struct records_sink *rs = ctx;
	if (rs->before)
		rs->before(rs->before_ctx, line);
	records_line(rs->out, line->kind == SINK_SELECTED ? 's' : 'c', line->offset, line->lineno,
		     rs->counted, line->bytes, line->len);
	return outbuf_position(rs->out);
}

static uint64_t on_match(void *ctx, const struct sink_match *match)
{
	(void)match; /* the job searches without -o: never called */
	return outbuf_position(outbuf_of(ctx));
}

static uint64_t on_group_break(void *ctx)
{
	return outbuf_position(outbuf_of(ctx));
}

static void on_end(void *ctx, const struct sink_end *end)
{
	(void)ctx, (void)end;
}

struct sink records_sink(struct records_sink *rs, struct outbuf *out, bool counted)
{
	static const struct sink_ops ops = {
		.begin = on_begin,
		.line = on_line,
		.match = on_match,
		.group_break = on_group_break,
		.end = on_end,
		OUTBUF_SINK_OPS(outbuf_sink_rewind),
	};
	*rs = (struct records_sink){ .out = out, .counted = counted };
	return (struct sink){ .ops = &ops, .ctx = rs };
}
