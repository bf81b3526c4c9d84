/* SPDX-License-Identifier: MIT */
/* test_only_matching.c - tests of which of a line's matches grep -o
 * prints (src/grep/search/only_matching.h): the verdict on one match, and
 * the walk over a line through both forms (printed_matches_each, and
 * printed_matches_scan with printed_match_step), which must agree.
 *
 * Each judge case is a line's length without its terminator, whether the
 * matcher's whole-line matches take the terminator, a match and the
 * verdict.  Each walk case is a pattern list, -w/-x/--overlapping, a line,
 * and the matches printed ("start-end", "$" when it takes the terminator).
 * Prints "N passed, N failed"; exits non-zero on any failure.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "match/matcher.h"
#include "narrow.h"
#include "options/config.h"
#include "pattern_list.h"
#include "search/only_matching.h"

#define P(s) { .bytes = s, .len = sizeof(s) - 1 }

struct judge_case {
	const char *name;
	size_t content;
	bool takes_eol;
	struct matcher_hit hit;
	enum printed_match verdict;
};

static const struct judge_case judge_cases[] = {
	{ "a match inside the text", 5, false, { .start = 1, .end = 3 }, PRINTED },
	{ "a match ending the text", 5, false, { .start = 3, .end = 5 }, PRINTED },
	{ "an empty match", 5, false, { .start = 2, .end = 2 }, PRINTED_SKIP },
	{ "an empty match at the text's end", 5, false, { .start = 5, .end = 5 }, PRINTED_PAST },
	{ "a match on the terminator", 5, false, { .start = 5, .end = 6 }, PRINTED_PAST },
	{ "the whole text, no terminator taken", 5, false, { .start = 0, .end = 5 }, PRINTED },
	{ "the whole text taking the terminator", 5, true, { .start = 0, .end = 5 }, PRINTED_LAST },
	{ "an empty line's empty match taking it", 0, true, { .start = 0, .end = 0 }, PRINTED_LAST },
	{ "an empty match where matches take it", 5, true, { .start = 2, .end = 2 }, PRINTED_SKIP },
	{ "an inner match where matches take it", 5, true, { .start = 1, .end = 3 }, PRINTED },
};

static void test_judge(void)
{
	for (size_t i = 0; i < sizeof judge_cases / sizeof *judge_cases; i++) {
		const struct judge_case *c = &judge_cases[i];
		struct matcher m = { .match_takes_eol = c->takes_eol };
		struct printed_line pl = { .matcher = &m, .content = c->content };
		enum printed_match got = printed_match_judge(&pl, &c->hit);
		CHECK(got == c->verdict, "%s: verdict %d, expected %d", c->name, (int)got, (int)c->verdict);
	}
}

struct walk_case {
	const char *name;
	struct pattern pats[4];
	size_t n_pats;
	bool word, line, overlapping;
	const char *text;        /* the line, with its terminator or without */
	const char *printed;     /* the matches printed, "s-e" each, "$" taking the terminator */
};

static const struct walk_case walk_cases[] = {
	{ .name = "leftmost-longest, in order", .pats = { P("ab"), P("abc"), P("c") }, .n_pats = 3,
	  .text = "xabcyab\n", .printed = "1-4 5-7" },
	{ .name = "empty matches left out", .pats = { P("b"), P("") }, .n_pats = 2,
	  .text = "abxb\n", .printed = "1-2 3-4" },
	{ .name = "only empty matches", .pats = { P("") }, .n_pats = 1, .text = "xyz\n", .printed = "" },
	{ .name = "the empty line", .pats = { P("") }, .n_pats = 1, .text = "\n", .printed = "" },
	{ .name = "a line without terminator", .pats = { P("ab") }, .n_pats = 1,
	  .text = "abab", .printed = "0-2 2-4" },
	{ .name = "-x -w: the whole line takes its terminator", .pats = { P("abc") }, .n_pats = 1,
	  .word = true, .line = true, .text = "abc\n", .printed = "0-3$" },
	{ .name = "-x -w: no terminator to take", .pats = { P("abc") }, .n_pats = 1,
	  .word = true, .line = true, .text = "abc", .printed = "0-3$" },
	{ .name = "-x alone takes none", .pats = { P("abc") }, .n_pats = 1,
	  .line = true, .text = "abc\n", .printed = "0-3" },
	{ .name = "--overlapping: every occurrence, by start, the longest first",
	  .pats = { P("ab"), P("b"), P("abc") }, .n_pats = 3, .overlapping = true,
	  .text = "abcab\n", .printed = "0-3 0-2 1-2 3-5 4-5" },
	{ .name = "--overlapping: empty occurrences left out", .pats = { P("a"), P("") }, .n_pats = 2,
	  .overlapping = true, .text = "aa\n", .printed = "0-1 1-2" },
};

/* The matches printed, as the case writes them. */
struct printed_text {
	char buf[128];
	size_t len;
	struct printed_line line;
};

static int note(const struct matcher_hit *hit, bool takes_eol, void *ctx)
{
	struct printed_text *t = ctx;
	int n = snprintf(t->buf + t->len, sizeof t->buf - t->len, "%s%zu-%zu%s", t->len ? " " : "",
			 hit->start, hit->end, takes_eol ? "$" : "");
	t->len += n > 0 && (size_t)n < sizeof t->buf - t->len ? (size_t)n : 0;
	return 0;
}

static int note_step(const struct matcher_hit *hit, void *ctx)
{
	struct printed_text *t = ctx;
	return printed_match_step(&t->line, hit, note, t);
}

static void test_walk(const struct walk_case *c)
{
	struct config cfg = {
		.patterns = pattern_list(c->pats, c->n_pats),
		.word_regexp = c->word,
		.line_regexp = c->line,
		.overlapping = c->overlapping,
	};
	const char *error = NULL;
	struct matcher *m = matcher_for_config(&cfg, &cfg.patterns, 1, &error);
	CHECK(m != NULL, "%s: %s", c->name, error ? error : "no matcher");
	if (!m)
		return;
	size_t len = strlen(c->text);
	struct printed_text each = { .len = 0 }, scan = { .len = 0 };
	each.line = printed_line_of(m, c->text, len, '\n', c->overlapping);
	scan.line = each.line;
	printed_matches_each(&each.line, c->text, len, note, &each);
	printed_matches_scan(&scan.line, c->text, len, note_step, &scan);
	CHECK(strcmp(each.buf, c->printed) == 0, "%s: printed \"%s\", expected \"%s\"", c->name,
	      each.buf, c->printed);
	CHECK(strcmp(scan.buf, each.buf) == 0, "%s: the scan printed \"%s\", the walk \"%s\"", c->name,
	      scan.buf, each.buf);
	matcher_free(m);
	pattern_list_free(&cfg.patterns);
}

int main(void)
{
	test_judge();
	for (size_t i = 0; i < sizeof walk_cases / sizeof *walk_cases; i++)
		test_walk(&walk_cases[i]);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
