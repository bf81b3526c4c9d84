/* SPDX-License-Identifier: MIT */
/* test_pattern_keys.c - tests of which pattern a match reports
 * (matcher_hit.pattern, matcher_identify) and of the rows it counts in
 * (src/grep/match/pattern_keys.c).
 *
 * Each case is a pattern list, options and a text: every match that
 * matcher_each reports must name the pattern expected, the same on every
 * scan path, and matcher_find's match from 0 must name it too; then the
 * list's aliases (the first of the patterns the matcher cannot tell
 * apart) are checked.  Prints "N passed, N failed"; exits non-zero on any
 * failure.
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ac.h"
#include "check.h"
#include "match/matcher.h"
#include "narrow.h"
#include "match/pattern_keys.h"
#include "pattern_list.h"

#define P(s) { .bytes = s, .len = sizeof(s) - 1 }
#define MAX_HITS 8

struct kcase {
	const char *name;
	bool utf8;              /* C.UTF-8, else C */
	const char *flags;      /* i w x, a (-a) */
	struct pattern pats[5];
	size_t n_pats;
	const char *text;
	size_t len;             /* of text; 0: strlen */
	uint32_t ids[MAX_HITS]; /* the patterns of matcher_each's matches, in order */
	size_t n_ids;
	uint32_t first[5];      /* pattern_keys.first */
};

static const struct kcase cases[] = {
	{ .name = "distinct patterns name themselves", .pats = { P("ab"), P("cd"), P("b") },
	  .n_pats = 3, .text = "xcd ab b\n", .ids = { 1, 0, 2 }, .n_ids = 3, .first = { 0, 1, 2 } },
	{ .name = "a duplicate reports the first", .pats = { P("b"), P("ab"), P("ab") },
	  .n_pats = 3, .text = "ab\n", .ids = { 1 }, .n_ids = 1, .first = { 0, 1, 1 } },
	{ .name = "-i: patterns equal but for case are one", .flags = "i",
	  .pats = { P("Foo"), P("x"), P("fOO") }, .n_pats = 3, .text = "FOO x foo\n",
	  .ids = { 0, 1, 0 }, .n_ids = 3, .first = { 0, 1, 0 } },
	{ .name = "without -i case tells them apart", .pats = { P("Foo"), P("foo") }, .n_pats = 2,
	  .text = "foo Foo\n", .ids = { 1, 0 }, .n_ids = 2, .first = { 0, 1 } },
	{ .name = "UTF-8 -i folds: the first of the folded equals", .utf8 = true, .flags = "i",
	  .pats = { P("\xc3\xa9t\xc3\xa9"), P("\xc3\x89T\xc3\x89") }, .n_pats = 2,
	  .text = "\xc3\x89t\xc3\xa9\n", .ids = { 0 }, .n_ids = 1, .first = { 0, 0 } },
	{ .name = "-w: the qualifying match's pattern", .flags = "w",
	  .pats = { P("ab"), P("abc"), P("c") }, .n_pats = 3, .text = "abcd ab c\n",
	  .ids = { 0, 2 }, .n_ids = 2, .first = { 0, 1, 2 } },
	{ .name = "-x: the whole line's pattern", .flags = "x", .pats = { P("a"), P("ab") },
	  .n_pats = 2, .text = "ab\n", .ids = { 1 }, .n_ids = 1, .first = { 0, 1 } },
	{ .name = "a dropped NUL pattern keeps the ids after it",
	  .pats = { P("a\0b"), P("cd"), P("a\0b") }, .n_pats = 3, .text = "cd\n", .ids = { 1 },
	  .n_ids = 1, .first = { 0, 1, 2 } },
	{ .name = "-a keeps NUL patterns", .flags = "a", .pats = { P("a\0b"), P("cd"), P("a\0b") },
	  .n_pats = 3, .text = "a\0b cd\n", .len = 7, .ids = { 0, 1 }, .n_ids = 2,
	  .first = { 0, 1, 0 } },
	{ .name = "the empty pattern", .pats = { P("b"), P(""), P("") }, .n_pats = 3,
	  .text = "ab", .ids = { 1, 0, 1 }, .n_ids = 3, .first = { 0, 1, 1 } },
};

struct collect {
	uint32_t ids[MAX_HITS];
	size_t n;
};

static int collect(const struct matcher_hit *hit, void *ctx)
{
	struct collect *c = ctx;
	if (c->n < MAX_HITS)
		c->ids[c->n] = hit->pattern;
	c->n++;
	return 0;
}

static struct config case_config(const struct kcase *c, int scan_path)
{
	const char *f = c->flags ? c->flags : "";
	return (struct config){
		.patterns = pattern_list(c->pats, c->n_pats),
		.ignore_case = strchr(f, 'i') != NULL,
		.word_regexp = strchr(f, 'w') != NULL,
		.line_regexp = strchr(f, 'x') != NULL,
		.binary = strchr(f, 'a') ? BINARY_TEXT : BINARY_BINARY,
		.utf8_locale = c->utf8,
		.scan_path = scan_path,
	};
}

static void run_case(const struct kcase *c)
{
	for (int path = AC_PATH_AUTO; path <= AC_PATH_HASH; path++) {
		struct config cfg = case_config(c, path);
		struct pattern_keys keys;
		CHECK(pattern_keys_init(&keys, &cfg.patterns, &cfg.tags, cfg.syntax) == 0, "%s: keys", c->name);
		const char *error = NULL;
		struct matcher *m = matcher_for_config(&cfg, &cfg.patterns, 1, &error);
		CHECK(m != NULL, "%s: matcher: %s", c->name, error ? error : "");
		if (!m) {
			pattern_keys_free(&keys);
			continue;
		}
		size_t len = c->len ? c->len : strlen(c->text);
		struct collect got = { .n = 0 };
		matcher_each(m, c->text, len, 0, collect, &got);
		bool same = got.n == c->n_ids;
		for (size_t i = 0; same && i < got.n; i++)
			same = got.ids[i] == c->ids[i];
		CHECK(same, "%s (path %d): %zu matches, the first naming %u", c->name, path, got.n,
		      got.n ? got.ids[0] : 0);
		struct matcher_hit hit;
		if (c->n_ids && matcher_find_hit(m, c->text, len, 0, true, &hit))
			CHECK(hit.pattern == c->ids[0], "%s (path %d): find names %u, want %u", c->name,
			      path, hit.pattern, c->ids[0]);
		pattern_keys_link(&keys, m);
		for (size_t i = 0; i < c->n_pats; i++)
			CHECK(keys.first[i] == c->first[i], "%s (path %d): first[%zu] = %u, want %u",
			      c->name, path, i, keys.first[i], c->first[i]);
		matcher_free(m);
		pattern_keys_free(&keys);
	}
}

/* With a tagged list every pattern names its tag's row. */
static void tags(void)
{
	struct pattern pats[] = { P("evil.com"), P("bad.org"), P("evil.com") };
	struct pattern names[] = { P("apt1"), P("apt2") };
	uint32_t of[] = { 0, 1, 1 };
	struct config cfg = { .patterns = pattern_list(pats, 3) };
	cfg.tags = (struct pattern_tags){ .names = pattern_list(names, 2), .of = of };
	struct pattern_keys keys;
	CHECK(pattern_keys_init(&keys, &cfg.patterns, &cfg.tags, cfg.syntax) == 0 && keys.n_keys == 2,
	      "tags: two rows");
	const char *error;
	struct matcher *m = matcher_for_config(&cfg, &cfg.patterns, 1, &error);
	pattern_keys_link(&keys, m);
	struct matcher_hit hit;
	CHECK(matcher_find_hit(m, "x bad.org evil.com", 18, 0, true, &hit) &&
	      pattern_keys_key(&keys, hit.pattern) == 1, "tags: bad.org counts for apt2");
	CHECK(matcher_find_hit(m, "x bad.org evil.com", 18, 9, true, &hit) &&
	      pattern_keys_key(&keys, hit.pattern) == 0, "tags: evil.com for apt1, its first tag");
	struct pattern name;
	uint64_t number;
	pattern_keys_name(&keys, 1, SHOW_PATTERN_TAG, &name, &number);
	CHECK(name.len == 4 && memcmp(name.bytes, "apt2", 4) == 0, "tags: the tag's name");
	pattern_keys_name(&keys, 1, SHOW_PATTERN_TEXT, &name, &number);
	CHECK(name.len == 7 && memcmp(name.bytes, "bad.org", 7) == 0, "tags: the pattern's text");
	pattern_keys_name(&keys, 1, SHOW_PATTERN_NUMBER, &name, &number);
	CHECK(number == 2 && name.len == 0, "tags: the pattern's number");
	CHECK(pattern_keys_is_row(&keys, 1), "tags: every tag is a row");
	matcher_free(m);
	pattern_keys_free(&keys);
	pattern_list_free(&cfg.tags.names);
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
	tags();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
