/* SPDX-License-Identifier: MIT */
/* test_matcher.c - tests of matcher_for_config (src/grep/match/matcher.c): which
 * of GNU grep -F's two matchers' rules a config gets.
 *
 * Each case is a config (locale, options, patterns), whether its matches
 * take the line terminator (-x -w under grep's regex matcher), and one
 * find from an offset of a text with the match expected there; every case
 * also checks that the pattern set was taken over.  The expectations are
 * GNU grep 3.8's (see matcher.c's head).  Prints "N passed, N failed";
 * exits non-zero on any failure.
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "match/matcher.h"
#include "narrow.h"
#include "pattern_list.h"

#define P(s) { .bytes = s, .len = sizeof(s) - 1 }
#define TEXT(s) .text = s, .len = sizeof(s) - 1

struct mcase {
	const char *name;
	bool utf8;              /* C.UTF-8, else C */
	const char *flags;      /* i w x, z (-z), a (-a), p (--engine=pcre2) */
	struct pattern pats[4];
	size_t n_pats;
	bool takes_eol;         /* matcher.match_takes_eol */
	const char *text;       /* matcher_find(exact) from `from` in it */
	size_t len, from;
	bool found;
	size_t start, end;
};

static const struct mcase cases[] = {
	/* -x -w: where grep uses its regex matcher a match takes the terminator */
	{ .name = "C: -w -x, one pattern: regex matcher", .flags = "wx", .pats = { P("ab") },
	  .n_pats = 1, .takes_eol = true, TEXT("ab\n"), .found = true, .start = 0, .end = 2 },
	{ .name = "C: -w -x, two distinct patterns: kwset", .flags = "wx",
	  .pats = { P("ab"), P("cd") }, .n_pats = 2, TEXT("cd\n"), .found = true, .start = 0,
	  .end = 2 },
	{ .name = "C: -w -x, one pattern twice is one distinct", .flags = "wx",
	  .pats = { P("ab"), P("ab") }, .n_pats = 2, .takes_eol = true, TEXT("ab\n"), .found = true,
	  .start = 0, .end = 2 },
	{ .name = "C: -x alone never takes the terminator", .flags = "x", .pats = { P("ab") },
	  .n_pats = 1, TEXT("ab\n"), .found = true, .start = 0, .end = 2 },
	{ .name = "UTF-8: -w -x, one valid pattern: kwset", .utf8 = true, .flags = "wx",
	  .pats = { P("ab") }, .n_pats = 1, TEXT("ab\n"), .found = true, .start = 0, .end = 2 },
	{ .name = "UTF-8: -w -x, a pattern not valid UTF-8: regex matcher", .utf8 = true,
	  .flags = "wx", .pats = { P("\xff") }, .n_pats = 1, .takes_eol = true, TEXT("\xff\n"),
	  .found = true, .start = 0, .end = 1 },
	{ .name = "UTF-8: -i -w -x, a multibyte letter with cases: regex matcher", .utf8 = true,
	  .flags = "iwx", .pats = { P("\xc3\xa9") }, .n_pats = 1, .takes_eol = true,
	  TEXT("\xc3\x89\n"), .found = true, .start = 0, .end = 2 },
	{ .name = "UTF-8: -i -w -x, s (which long s folds to): regex matcher", .utf8 = true,
	  .flags = "iwx", .pats = { P("s") }, .n_pats = 1, .takes_eol = true, TEXT("S\n"),
	  .found = true, .start = 0, .end = 1 },
	{ .name = "UTF-8: -w -x, a multibyte letter without -i: kwset", .utf8 = true,
	  .flags = "wx", .pats = { P("\xc3\xa9") }, .n_pats = 1, TEXT("\xc3\xa9\n"), .found = true,
	  .start = 0, .end = 2 },

	/* -w: kwset does not look at the byte before `from`, the regex matcher does */
	{ .name = "C: -w, two patterns (kwset): a match at from ignores the byte before",
	  .flags = "w", .pats = { P("a"), P("zz") }, .n_pats = 2, TEXT("xa b"), .from = 1,
	  .found = true, .start = 1, .end = 2 },
	{ .name = "C: -w, one pattern (regex matcher): the byte before from counts",
	  .flags = "w", .pats = { P("a") }, .n_pats = 1, TEXT("xa b"), .from = 1 },

	/* patterns holding NUL */
	{ .name = "binary files: a pattern with NUL is dropped", .pats = { P("a\0b") },
	  .n_pats = 1, TEXT("a\0b\n") },
	{ .name = "-a: a pattern with NUL is kept", .flags = "a", .pats = { P("a\0b") },
	  .n_pats = 1, TEXT("a\0b\n"), .found = true, .start = 0, .end = 3 },
	{ .name = "-z (kwset): a pattern with NUL spans records", .flags = "z",
	  .pats = { P("a\0b") }, .n_pats = 1, TEXT("a\0b\0"), .found = true, .start = 0, .end = 3 },
	{ .name = "-z -w, one pattern (regex matcher): a pattern with NUL is dropped",
	  .flags = "zw", .pats = { P("a\0b") }, .n_pats = 1, TEXT("a\0b\0") },
	{ .name = "-z, PCRE2: a pattern with NUL is dropped", .flags = "zp",
	  .pats = { P("a\0b") }, .n_pats = 1, TEXT("a\0b\0") },
};

static void run_case(const struct mcase *c)
{
	const char *f = c->flags ? c->flags : "";
	struct config cfg = {
		.patterns = pattern_list(c->pats, c->n_pats),
		.ignore_case = strchr(f, 'i') != NULL,
		.word_regexp = strchr(f, 'w') != NULL,
		.line_regexp = strchr(f, 'x') != NULL,
		.null_data = strchr(f, 'z') != NULL,
		.binary = strchr(f, 'a') ? BINARY_TEXT : BINARY_BINARY,
		.engine = strchr(f, 'p') ? ENGINE_PCRE2 : ENGINE_AC,
		.utf8_locale = c->utf8,
	};
	const char *error = NULL;
	struct matcher *m = matcher_for_config(&cfg, &cfg.patterns, 1, &error);
	CHECK(cfg.patterns.count == 0 && !cfg.patterns.storage && !cfg.patterns.end,
	      "%s: the pattern set is taken over", c->name);
	if (!m) {
		CHECK(strchr(f, 'p') && strstr(error, "PCRE2"), "%s: no matcher: %s", c->name, error);
		return;
	}
	CHECK(m->match_takes_eol == c->takes_eol, "%s: match_takes_eol %d, want %d", c->name,
	      m->match_takes_eol, c->takes_eol);
	size_t start = 0, end = 0;
	bool found = matcher_find(m, c->text, c->len, c->from, true, &start, &end);
	CHECK(found == c->found && (!found || (start == c->start && end == c->end)),
	      "%s: found %d [%zu, %zu), want %d [%zu, %zu)", c->name, found, start, end, c->found,
	      c->start, c->end);
	CHECK(!matcher_take_failure(), "%s: no failure", c->name);
	matcher_free(m);
}

int main(void)
{
	bool have_utf8 = setlocale(LC_ALL, "C.UTF-8") != NULL;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (cases[i].utf8 && !have_utf8)
			continue;
		setlocale(LC_ALL, cases[i].utf8 ? "C.UTF-8" : "C");
		run_case(&cases[i]);
	}
	setlocale(LC_ALL, "C");
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
