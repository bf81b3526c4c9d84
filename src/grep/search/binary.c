/* SPDX-License-Identifier: MIT */
/* binary.c - grep's binary-file rule for one input (see binary.h).
 *
 * The encoding check is grep's: a line (or, under -o, a match) is asked of
 * mbrlen, so the C library's idea of the locale decides, with ASCII
 * skipped eight bytes at a time.
 */
#include "binary.h"

#include <string.h>
#include <wchar.h>

void binary_begin(struct binary_policy *b, const struct search_options *opt, bool quiet)
{
	*b = (struct binary_policy){
		.mode = opt->binary,
		.detect_nul = opt->binary != BINARY_TEXT && opt->eol != '\0',
		/* JSON carries any bytes (base64), so no line is kept back for them */
		.check_encoding = opt->utf8_locale && opt->binary != BINARY_TEXT && !opt->json,
		.counting = opt->count || opt->count_matches || opt->count_per_pattern,
		.reports = !quiet,
		.eol = opt->eol,
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

bool binary_text_valid(struct binary_policy *b, const char *text, size_t len)
{
	if (!has_encoding_errors(text, len))
		return true;
	b->encoding_error = true;
	return false;
}

bool binary_file_matches(const struct binary_policy *b, intmax_t selected)
{
	return b->reports && b->mode == BINARY_BINARY &&
	       ((b->binary && selected > b->selected_at_nul) || b->encoding_error);
}
