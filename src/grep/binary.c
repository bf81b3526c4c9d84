/* binary.c - grep's binary-file rule for one input (see binary.h).
 *
 * The encoding check is grep's: a line (or, under -o, a match) is asked of
 * mbrlen, so the C library's idea of the locale decides, with ASCII
 * skipped eight bytes at a time.
 */
#include "binary.h"

#include <string.h>
#include <wchar.h>

void binary_begin(struct binary_policy *b, const struct config *cfg, bool quiet)
{
	*b = (struct binary_policy){
		.mode = cfg->binary,
		.detect_nul = cfg->binary != BINARY_TEXT && !cfg->null_data,
		.check_encoding = cfg->utf8_locale && cfg->binary != BINARY_TEXT,
		.only_matching = cfg->only_matching,
		.invert = cfg->invert,
		.counting = cfg->count || cfg->count_matches,
		.reports = !quiet,
		.eol = config_eol(cfg),
		.selected_at_nul = -1,
	};
}

enum binary_next binary_nul_found(struct binary_policy *b, intmax_t selected)
{
	b->binary = true;
	if (b->mode == BINARY_WITHOUT_MATCH) {
		b->dropped = true;
		return BINARY_DROP;
	}
	b->selected_at_nul = selected;
	return b->counting ? BINARY_COUNT_ON : BINARY_STOP_QUIET;
}

/* True when s[0..n) is not valid in the locale's multibyte encoding (a
 * sequence cut off at the end is not). */
static bool has_encoding_errors(const char *s, size_t n)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t i = 0; i < n;) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			/* skip ASCII eight bytes at a time */
			uint64_t w;
			while (n - i >= 8 && (memcpy(&w, s + i, 8), (w & UINT64_C(0x8080808080808080)) == 0))
				i += 8;
			continue;
		}
		size_t len = mbrlen(s + i, n - i, &st);
		if (len >= (size_t)-2)
			return true;
		i += len ? len : 1;
	}
	return false;
}

/* Whether s[0..n) is ASCII, so that every part of it is valid. */
static bool all_ascii(const char *s, size_t n)
{
	uint64_t any = 0, w;
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		memcpy(&w, s + i, 8);
		any |= w;
	}
	for (; i < n; i++)
		any |= (unsigned char)s[i];
	return (any & UINT64_C(0x8080808080808080)) == 0;
}

/* -o's check over the matches of one line (the printer's matches: the
 * same matcher_each from the line's start). */
struct match_check {
	const char *text;
	size_t content;       /* the line without its terminator */
	size_t limit;         /* where the first match with an error starts */
};

static int check_match(size_t ms, size_t me, void *ctx)
{
	struct match_check *mc = ctx;
	if (ms >= mc->content)
		return 1;
	if (me > ms && has_encoding_errors(mc->text + ms, me - ms)) {
		mc->limit = ms;
		return 1;
	}
	return 0;
}

bool binary_check_line(struct binary_policy *b, const struct matcher *m, struct sink_line *line)
{
	size_t content = line->len - (line->len > 0 && line->bytes[line->len - 1] == b->eol);
	if (!b->only_matching) {
		if (!has_encoding_errors(line->bytes, content))
			return true;
		b->encoding_error = true;
		return false;
	}
	/* -o outputs the matches of a matching line, nothing of another */
	bool matching = (line->kind == SINK_SELECTED) != b->invert;
	if (!matching || line->len == 0 || all_ascii(line->bytes, content))
		return true;
	struct match_check mc = { .text = line->bytes, .content = content, .limit = SIZE_MAX };
	matcher_each(m, line->bytes, line->len, 0, check_match, &mc);
	if (mc.limit == SIZE_MAX)
		return true;
	line->match_limit = mc.limit;
	b->encoding_error = true;
	return false;
}

bool binary_file_matches(const struct binary_policy *b, intmax_t selected)
{
	return b->reports && b->mode == BINARY_BINARY &&
	       ((b->binary && selected > b->selected_at_nul) || b->encoding_error);
}
