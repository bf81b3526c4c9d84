/* SPDX-License-Identifier: MIT */
/* test_pattern_field.c - tests of the pattern field's contents
 * (src/grep/output/pattern_field.c): which patterns a line or an -o match names,
 * in which order, by which name, each name once per line with
 * --show-all-patterns (also across the wrap of its line stamps).
 *
 * Each case is a pattern list (tags optional), WHAT, whether all patterns
 * are named, and lines with the field expected for each, written through
 * pattern_field_write's put callback.  Prints "N passed, N failed"; exits
 * non-zero on any failure.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "narrow.h"
#include "options/config.h"
#include "output/pattern_field.h"
#include "pattern_list.h"

#define P(s) { .bytes = s, .len = sizeof(s) - 1 }

struct fcase {
	const char *name;
	struct pattern pats[4];
	size_t n_pats;
	const char *tags[4];     /* NULL: no tagged list; else each pattern's tag */
	enum show_pattern what;
	bool all;
	const char *lines[3];    /* each with its terminator, or without at the end */
	const char *fields[3];   /* the field expected for each */
};

static const struct fcase cases[] = {
	{ .name = "the first match's pattern", .pats = { P("ab"), P("cd"), P("b") }, .n_pats = 3,
	  .what = SHOW_PATTERN_TEXT, .lines = { "xcd ab b\n", "b", "zz\n" },
	  .fields = { "cd", "b", "" } },
	{ .name = "every distinct one, in order", .pats = { P("ab"), P("cd"), P("b") }, .n_pats = 3,
	  .what = SHOW_PATTERN_NUMBER, .all = true, .lines = { "xcd ab b cd ab\n", "b b\n" },
	  .fields = { "2,1,3", "3" } },
	{ .name = "untagged: the tag is the text", .pats = { P("ab"), P("cd") }, .n_pats = 2,
	  .what = SHOW_PATTERN_TAG, .all = true, .lines = { "cd ab\n" }, .fields = { "cd,ab" } },
	{ .name = "tags named once", .pats = { P("ab"), P("cd"), P("b") }, .n_pats = 3,
	  .tags = { "t0", "t0", "t1" }, .what = SHOW_PATTERN_TAG, .all = true,
	  .lines = { "xcd ab b\n", "b ab\n" }, .fields = { "t0,t1", "t1,t0" } },
	{ .name = "tags, texts told apart", .pats = { P("ab"), P("cd"), P("b") }, .n_pats = 3,
	  .tags = { "t0", "t0", "t1" }, .what = SHOW_PATTERN_TEXT, .all = true,
	  .lines = { "xcd ab b\n" }, .fields = { "cd,ab,b" } },
	{ .name = "an empty match -o leaves out", .pats = { P("b"), P("") }, .n_pats = 2,
	  .what = SHOW_PATTERN_NUMBER, .all = true, .lines = { "ab\n", "xyz\n", "\n" },
	  .fields = { "1", "2", "2" } },
	{ .name = "the empty line", .pats = { P("") }, .n_pats = 1, .what = SHOW_PATTERN_NUMBER,
	  .lines = { "\n" }, .fields = { "1" } },
};

struct out {
	char buf[256];
	size_t len;
};

static void put(void *ctx, const char *p, size_t n)
{
	struct out *o = ctx;
	if (o->len + n < sizeof o->buf) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
	}
	o->buf[o->len] = '\0';
}

/* The field of line (NULL: of pattern alone). */
static const char *field_of(struct pattern_field *pf, const char *line, uint32_t pattern)
{
	static struct out o;
	o.len = 0;
	o.buf[0] = '\0';
	pattern_field_write(pf, line, line ? strlen(line) : 0, pattern, put, &o);
	return o.buf;
}

/* The tags of c as cfg->tags: names in order of first use. */
static void tags_of(const struct fcase *c, struct pattern_tags *t, uint32_t *of)
{
	struct pattern names[4];
	size_t n = 0;
	for (size_t i = 0; i < c->n_pats; i++) {
		size_t k = 0;
		while (k < n && strcmp(names[k].bytes, c->tags[i]) != 0)
			k++;
		if (k == n)
			names[n++] = (struct pattern){ .bytes = c->tags[i], .len = strlen(c->tags[i]) };
		of[i] = (uint32_t)k;
	}
	*t = (struct pattern_tags){ .names = pattern_list(names, n), .of = of };
}

/* Builds the run's keys, matcher and field for c. */
static bool set_up(const struct fcase *c, struct config *cfg, struct pattern_keys *k,
		   struct matcher **m, struct pattern_field *pf, uint32_t *of)
{
	*cfg = (struct config){
		.patterns = pattern_list(c->pats, c->n_pats),
		.show_pattern = c->what,
		.show_all_patterns = c->all,
	};
	if (c->tags[0])
		tags_of(c, &cfg->tags, of);
	const char *error = NULL;
	if (pattern_keys_init(k, &cfg->patterns, &cfg->tags, cfg->syntax) != 0 ||
	    !(*m = matcher_for_config(cfg, &cfg->patterns, 1, &error))) {
		fprintf(stderr, "%s: %s\n", c->name, error ? error : "memory exhausted");
		return false;
	}
	pattern_keys_link(k, *m);
	const struct print_options po = print_options_of(cfg);
	return pattern_field_init(pf, &po, *m, k) == 0;
}

static void run_case(const struct fcase *c)
{
	struct config cfg;
	struct pattern_keys k;
	struct matcher *m = NULL;
	struct pattern_field pf = { .seen = NULL };
	uint32_t of[4];
	CHECK(set_up(c, &cfg, &k, &m, &pf, of), "%s: set up", c->name);
	for (size_t i = 0; m && i < 3 && c->lines[i]; i++) {
		const char *got = field_of(&pf, c->lines[i], MATCHER_NO_PATTERN);
		CHECK(strcmp(got, c->fields[i]) == 0, "%s: line %zu: field \"%s\", want \"%s\"", c->name, i,
		      got, c->fields[i]);
	}
	pattern_field_free(&pf);
	matcher_free(m);
	pattern_keys_free(&k);
	pattern_list_free(&cfg.patterns);
	if (c->tags[0])
		pattern_list_free(&cfg.tags.names);
}

/* An -o match names its own pattern; MATCHER_NO_PATTERN names none; the
 * stamps of --show-all-patterns start again when they wrap. */
static void test_match_and_wrap(void)
{
	static const struct fcase c = {
		.name = "wrap", .pats = { P("ab"), P("cd") }, .n_pats = 2,
		.what = SHOW_PATTERN_NUMBER, .all = true,
	};
	struct config cfg;
	struct pattern_keys k;
	struct matcher *m = NULL;
	struct pattern_field pf = { .seen = NULL };
	uint32_t of[4];
	CHECK(set_up(&c, &cfg, &k, &m, &pf, of), "wrap: set up");
	if (m) {
		CHECK(strcmp(field_of(&pf, NULL, 1), "2") == 0, "an -o match's pattern");
		CHECK(strcmp(field_of(&pf, NULL, MATCHER_NO_PATTERN), "") == 0, "no pattern");
		pf.stamp = 0;
		CHECK(strcmp(field_of(&pf, "ab\n", 0), "1") == 0, "stamp 1");
		pf.stamp = UINT32_MAX; /* the next line wraps to 0, then starts again at 1 */
		CHECK(strcmp(field_of(&pf, "cd ab ab\n", 0), "2,1") == 0, "after the wrap");
		CHECK(pf.stamp == 1, "the stamp after the wrap is 1, not %u", (unsigned)pf.stamp);
		CHECK(strcmp(field_of(&pf, "ab cd\n", 0), "1,2") == 0, "the line after the wrap");
	}
	pattern_field_free(&pf);
	matcher_free(m);
	pattern_keys_free(&k);
	pattern_list_free(&cfg.patterns);
}

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
	test_match_and_wrap();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
