/* SPDX-License-Identifier: MIT */
/* json.c - the --json records (see json.h).
 *
 * A record is written in one go per event, into the output buffer: a
 * literal head, the input's path (encoded once, at its begin), the line,
 * its numbers and its submatches.  The begin record waits for the
 * input's first line, so that an input that outputs none has no records,
 * as in ripgrep.  The submatches of a selected line come from the search
 * (sink_line.hits); those of a context line (under -v, or after -m) are
 * asked of the matcher here.
 */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"
#include "match/pattern_keys.h"
#include "print.h"
#include "search/only_matching.h"

/* The tags of recent submatches, as JSON values: a tag is a pattern's
 * text, or its tag, encoded once rather than per match. */
#define TAG_CACHE 64
#define TAG_CACHED_MAX 54
struct cached_tag {
	uint32_t pattern;      /* UINT32_MAX: empty */
	uint8_t len;
	char json[TAG_CACHED_MAX];
};

struct json_writer {
	struct outbuf *out;    /* first: see outbuf_of */
	bool invert;           /* -v: a selected line holds no match */
	char eol;
	const struct matcher *matcher;
	const struct pattern_keys *keys; /* NULL unless pattern_keys_wanted */
	const char *name;      /* the input's display name */
	char *path;            /* ... as a JSON value; NULL: encoded per record
				  (there was no memory for it) */
	size_t path_len, path_cap;
	bool begun;            /* its begin record is out */
	uint64_t begin_mark;   /* the output's position before it */
	struct cached_tag tags[TAG_CACHE]; /* by pattern id modulo TAG_CACHE */
};

/* Writes the literal string s (an array) at o and moves o past it. */
#define PUT_LIT(o, s) (memcpy((o), (s), sizeof(s) - 1), (o) += sizeof(s) - 1)

/* Appends the literal string s (an array). */
#define JSON_LIT(out, s) json_raw((out), (s), sizeof(s) - 1)

/* The sink operations that are the buffer's take the writer as its
 * outbuf's owner (outbuf.h). */
_Static_assert(offsetof(struct json_writer, out) == 0, "a JSON writer begins with its outbuf");

static void put_path(struct json_writer *jw)
{
	if (jw->path)
		json_raw(jw->out, jw->path, jw->path_len);
	else
		json_text(jw->out, jw->name, strlen(jw->name));
}

static void begin_record(struct json_writer *jw)
{
	jw->begin_mark = outbuf_position(jw->out);
	JSON_LIT(jw->out, "{\"type\":\"begin\",\"data\":{\"path\":");
	put_path(jw);
	JSON_LIT(jw->out, "}}\n");
	jw->begun = true;
}

/* put_submatch's state over one line. */
struct submatches {
	struct json_writer *jw;
	const char *line;
	bool first;
};

/* The pattern's number and tag, as a submatch names them. */
struct pattern_name {
	bool known;            /* the engine told the pattern */
	uint64_t number;
	struct pattern tag;
	const struct cached_tag *cached; /* the tag encoded, or NULL */
};

static struct pattern_name name_pattern(struct json_writer *jw, uint32_t pattern)
{
	struct pattern_name pn = { .known = pattern != MATCHER_NO_PATTERN && jw->keys };
	if (!pn.known)
		return pn;
	struct cached_tag *c = &jw->tags[pattern % TAG_CACHE];
	if (c->pattern == pattern) {
		pn.number = (uint64_t)pattern + 1;
		pn.cached = c;
		return pn;
	}
	pattern_keys_name(jw->keys, pattern, SHOW_PATTERN_TAG, &pn.tag, &pn.number);
	if (json_text_max(pn.tag.len) <= TAG_CACHED_MAX) {
		c->len = (uint8_t)(json_put_text(c->json, pn.tag.bytes, pn.tag.len) - c->json);
		c->pattern = pattern;
		pn.cached = c;
	}
	return pn;
}

/* A submatch in parts: a match or tag too long for one reservation. */
static void put_long_submatch(struct submatches *sm, const struct matcher_hit *hit,
			      const struct pattern_name *pn, bool first)
{
	struct outbuf *out = sm->jw->out;
	if (first)
		JSON_LIT(out, "{\"match\":");
	else
		JSON_LIT(out, ",{\"match\":");
	json_text(out, sm->line + hit->start, hit->end - hit->start);
	JSON_LIT(out, ",\"start\":");
	json_u64(out, hit->start);
	JSON_LIT(out, ",\"end\":");
	json_u64(out, hit->end);
	if (!pn->known) {
		JSON_LIT(out, ",\"pattern\":null,\"tag\":null}");
		return;
	}
	JSON_LIT(out, ",\"pattern\":");
	json_u64(out, pn->number);
	JSON_LIT(out, ",\"tag\":");
	if (pn->cached)
		json_raw(out, pn->cached->json, pn->cached->len);
	else
		json_text(out, pn->tag.bytes, pn->tag.len);
	JSON_LIT(out, "}");
}

/* ,{"match":TEXT,"start":S,"end":E,"pattern":N,"tag":TEXT} */
static int put_submatch(const struct matcher_hit *hit, bool takes_eol, void *ctx)
{
	struct submatches *sm = ctx;
	(void)takes_eol;
	size_t len = hit->end - hit->start;
	struct pattern_name pn = name_pattern(sm->jw, hit->pattern);
	bool first = sm->first;
	sm->first = false;
	if (len > JSON_PART || pn.tag.len > JSON_PART) {
		put_long_submatch(sm, hit, &pn, first);
		return 0;
	}
	char *o = outbuf_reserve(sm->jw->out, json_text_max(len) + json_text_max(pn.tag.len) + 128);
	if (!first)
		*o++ = ',';
	PUT_LIT(o, "{\"match\":");
	o = json_put_text(o, sm->line + hit->start, len);
	PUT_LIT(o, ",\"start\":");
	o = json_put_u64(o, hit->start);
	PUT_LIT(o, ",\"end\":");
	o = json_put_u64(o, hit->end);
	if (pn.known) {
		PUT_LIT(o, ",\"pattern\":");
		o = json_put_u64(o, pn.number);
		PUT_LIT(o, ",\"tag\":");
		if (pn.cached) {
			memcpy(o, pn.cached->json, pn.cached->len);
			o += pn.cached->len;
		} else {
			o = json_put_text(o, pn.tag.bytes, pn.tag.len);
		}
		*o++ = '}';
	} else {
		PUT_LIT(o, ",\"pattern\":null,\"tag\":null}");
	}
	outbuf_commit(sm->jw->out, o);
	return 0;
}

static const char match_head[] = "{\"type\":\"match\",\"data\":{\"path\":";
static const char context_head[] = "{\"type\":\"context\",\"data\":{\"path\":";

/* A record's head up to its submatches, in parts (a long line or path). */
static void put_long_head(struct json_writer *jw, const struct sink_line *line)
{
	struct outbuf *out = jw->out;
	if (line->kind == SINK_SELECTED)
		JSON_LIT(out, match_head);
	else
		JSON_LIT(out, context_head);
	put_path(jw);
	JSON_LIT(out, ",\"lines\":");
	json_text(out, line->bytes, line->len);
	JSON_LIT(out, ",\"line_number\":");
	json_u64(out, (uint64_t)line->lineno);
	JSON_LIT(out, ",\"absolute_offset\":");
	json_u64(out, line->offset);
	JSON_LIT(out, ",\"submatches\":[");
}

/* A "match" or "context" record of a line. */
static void line_record(struct json_writer *jw, const struct sink_line *line)
{
	if (!jw->begun)
		begin_record(jw);
	bool selected = line->kind == SINK_SELECTED;
	size_t need = sizeof context_head + jw->path_len + json_text_max(line->len) + 128;
	if (!jw->path || line->len > JSON_PART || need > OUTBUF_SIZE / 2) {
		put_long_head(jw, line);
	} else {
		char *o = outbuf_reserve(jw->out, need);
		if (selected)
			PUT_LIT(o, match_head);
		else
			PUT_LIT(o, context_head);
		memcpy(o, jw->path, jw->path_len);
		o += jw->path_len;
		PUT_LIT(o, ",\"lines\":");
		o = json_put_text(o, line->bytes, line->len);
		PUT_LIT(o, ",\"line_number\":");
		o = json_put_u64(o, (uint64_t)line->lineno);
		PUT_LIT(o, ",\"absolute_offset\":");
		o = json_put_u64(o, line->offset);
		PUT_LIT(o, ",\"submatches\":[");
		outbuf_commit(jw->out, o);
	}
	struct submatches sm = { .jw = jw, .line = line->bytes, .first = true };
	if (line->hits) {
		for (size_t i = 0; i < line->hits->n; i++)
			put_submatch(&line->hits->v[i], false, &sm);
	} else if (!(selected && jw->invert)) { /* a line selected under -v holds none */
		struct printed_line pl = printed_line_of(jw->matcher, line->bytes, line->len, jw->eol, false);
		printed_matches_each(&pl, line->bytes, line->len, put_submatch, &sm);
	}
	JSON_LIT(jw->out, "]}}\n");
	outbuf_line_done(jw->out);
}

/* {"secs":S,"nanos":N,"human":"X.XXXXXXs"}, or with the keys in sorted
 * order (the summary's, as ripgrep writes it). */
static int format_duration(char *o, size_t room, uint64_t nanos, bool sorted)
{
	char human[32];
	stats_seconds(nanos, human);
	unsigned long long secs = nanos / 1000000000u, sub = nanos % 1000000000u;
	return sorted ? snprintf(o, room, "{\"human\":\"%ss\",\"nanos\":%llu,\"secs\":%llu}", human, sub, secs)
		      : snprintf(o, room, "{\"secs\":%llu,\"nanos\":%llu,\"human\":\"%ss\"}", secs, sub, human);
}

static void end_record(struct json_writer *jw, const struct sink_end *end)
{
	const struct search_stats zero = { .matches = 0 }, *st = end->stats ? end->stats : &zero;
	JSON_LIT(jw->out, "{\"type\":\"end\",\"data\":{\"path\":");
	put_path(jw);
	char text[512];
	int n = snprintf(text, sizeof text, ",\"binary_offset\":");
	n += end->binary_offset == UINT64_MAX
		     ? snprintf(text + n, sizeof text - (size_t)n, "null")
		     : snprintf(text + n, sizeof text - (size_t)n, "%llu",
				(unsigned long long)end->binary_offset);
	n += snprintf(text + n, sizeof text - (size_t)n, ",\"stats\":{\"elapsed\":");
	n += format_duration(text + n, sizeof text - (size_t)n, st->nanos, false);
	n += snprintf(text + n, sizeof text - (size_t)n,
		      ",\"searches\":1,\"searches_with_match\":%d,\"bytes_searched\":%llu,"
		      "\"bytes_printed\":%llu,\"matched_lines\":%llu,\"matches\":%llu}}}\n",
		      end->selected > 0, (unsigned long long)st->bytes_searched,
		      (unsigned long long)st->bytes_printed, (unsigned long long)st->matched_lines,
		      (unsigned long long)st->matches);
	json_raw(jw->out, text, (size_t)n);
	jw->begun = false;
	outbuf_line_done(jw->out);
}

void json_summary(struct outbuf *out, const struct run_stats *rs)
{
	const struct search_stats *t = &rs->total;
	char text[1024];
	int n = snprintf(text, sizeof text, "{\"data\":{\"elapsed_compile\":");
	n += format_duration(text + n, sizeof text - (size_t)n, rs->compile_nanos, true);
	n += snprintf(text + n, sizeof text - (size_t)n, ",\"elapsed_total\":");
	n += format_duration(text + n, sizeof text - (size_t)n, stats_now() - rs->start, true);
	n += snprintf(text + n, sizeof text - (size_t)n,
		      ",\"stats\":{\"bytes_printed\":%llu,\"bytes_searched\":%llu,\"elapsed\":",
		      (unsigned long long)t->bytes_printed, (unsigned long long)t->bytes_searched);
	n += format_duration(text + n, sizeof text - (size_t)n, t->nanos, true);
	n += snprintf(text + n, sizeof text - (size_t)n,
		      ",\"lines_searched\":%llu,\"matched_lines\":%llu,\"matches\":%llu,"
		      "\"patterns\":%llu,\"patterns_seen\":%llu,\"searches\":%llu,"
		      "\"searches_with_match\":%llu}},\"type\":\"summary\"}\n",
		      (unsigned long long)t->lines_searched, (unsigned long long)t->matched_lines,
		      (unsigned long long)t->matches, (unsigned long long)rs->patterns,
		      (unsigned long long)patterns_seen_count(&rs->seen),
		      (unsigned long long)rs->searches, (unsigned long long)rs->searches_with_match);
	json_raw(out, text, (size_t)n);
}

/* ---- the JSON writer as a sink (sink.h) -------------------------------- */

static void on_begin(void *ctx, const struct sink_begin *begin)
{
	struct json_writer *jw = ctx;
	size_t len = strlen(begin->name), need = json_text_max(len);
	jw->name = begin->name;
	jw->begun = false;
	if (need > jw->path_cap) {
		free(jw->path);
		jw->path_cap = 0;
		jw->path = malloc(need);
		if (jw->path)
			jw->path_cap = need;
	}
	if (jw->path)
		jw->path_len = (size_t)(json_put_text(jw->path, begin->name, len) - jw->path);
}

static uint64_t on_line(void *ctx, const struct sink_line *line)
{
	line_record(ctx, line);
	return outbuf_position(outbuf_of(ctx));
}

/* -o's matches (--json never has -o: opts_report.c drops it): each a
 * record of its own, the match as its line. */
static uint64_t on_match(void *ctx, const struct sink_match *match)
{
	line_record(ctx, &(struct sink_line){
		.bytes = match->bytes,
		.len = match->len,
		.lineno = match->lineno,
		.offset = match->offset,
		.kind = match->kind,
	});
	return outbuf_position(outbuf_of(ctx));
}

static uint64_t on_group_break(void *ctx)
{
	return outbuf_position(outbuf_of(ctx)); /* records carry line numbers instead */
}

static void on_end(void *ctx, const struct sink_end *end)
{
	struct json_writer *jw = ctx;
	if (jw->begun)
		end_record(jw, end);
}

/* outbuf_sink_rewind, and the begin record taken back with the rest. */
static bool on_rewind(void *ctx, uint64_t mark)
{
	struct json_writer *jw = ctx;
	if (!outbuf_rewind(jw->out, mark))
		return false;
	if (mark <= jw->begin_mark)
		jw->begun = false;
	return true;
}

struct json_writer *json_writer_new(struct outbuf *out, const struct print_options *opt,
				    const struct matcher *m, const struct pattern_keys *keys)
{
	struct json_writer *jw = malloc(sizeof *jw);
	if (!jw)
		return NULL;
	*jw = (struct json_writer){
		.out = out, .invert = opt->invert, .eol = opt->eol, .matcher = m, .keys = keys,
	};
	for (size_t i = 0; i < TAG_CACHE; i++)
		jw->tags[i].pattern = UINT32_MAX;
	return jw;
}

void json_writer_free(struct json_writer *jw)
{
	if (jw)
		free(jw->path);
	free(jw);
}

struct sink json_sink(struct json_writer *jw)
{
	static const struct sink_ops ops = {
		.begin = on_begin,
		.line = on_line,
		.match = on_match,
		.group_break = on_group_break,
		.end = on_end,
		OUTBUF_SINK_OPS(on_rewind),
	};
	return (struct sink){ .ops = &ops, .ctx = jw };
}

int output_sink(struct printer *pr, struct json_writer **json, struct sink *sink)
{
	*json = NULL;
	if (!pr->opt.json) {
		*sink = printer_sink(pr);
		return 0;
	}
	if (!(*json = json_writer_new(pr->out, &pr->opt, pr->matcher, pr->keys)))
		return -1;
	*sink = json_sink(*json);
	return 0;
}
