/* SPDX-License-Identifier: MIT */
/* test_context.c - tests of grep's context rule (src/grep/search/context.h)
 * over lines of one byte each, line i at input offset i.
 *
 * Each case is -A, -B, -m, whether separators are on, the lines ('s' a
 * selected line, '.' one not, 'x' one not selected that the encoding
 * check leaves out), the output before this input, and what a walk that
 * asks context.h at each line outputs: "N:" a selected line, "N-" a
 * context line, "--" a group separator.  Also context_before_start's
 * bounds (the last output, the caller's floor, a line it does not know)
 * and where owed after-context resumes in a window.
 * Prints "N passed, N failed"; exits non-zero on any failure.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "search/context.h"

struct context_case {
	const char *name;
	intmax_t after, before, max_count;
	bool no_separator, output_before;
	const char *lines;
	const char *output;
};

static const struct context_case cases[] = {
	{ "no context: no separators", -1, -1, -1, false, false, "s..s", "0: 3:" },
	{ "-A0 parts groups", 0, -1, -1, false, false, "s..s", "0: -- 3:" },
	{ "adjacent groups join", 1, 1, -1, false, false, "s..s", "0: 1- 2- 3:" },
	{ "-B stops at the last output", 1, 3, -1, false, false, ".s.s", "0- 1: 2- 3:" },
	{ "-B from the first line", -1, 5, -1, false, false, "..s", "0- 1- 2:" },
	{ "groups apart", 1, 1, -1, false, false, "s....s", "0: 1- -- 4- 5:" },
	{ "--no-group-separator", 1, 1, -1, true, false, "s....s", "0: 1- 4- 5:" },
	{ "a separator after an earlier input's output", 1, 1, -1, false, true, ".s", "-- 0- 1:" },
	{ "-m: the trailing context, then done", 2, -1, 1, false, false, "s.s..", "0: 1- 2-" },
	{ "-m 0 outputs nothing", 2, 2, 0, false, false, "s.s", "" },
	{ "a line left out ends the after-context", 3, -1, -1, false, false, "s.x..", "0: 1-" },
	{ "a selected line renews the after-context", 1, -1, -1, false, false, "ss..", "0: 1: 2-" },
};

/* The walk's output. */
struct walk {
	char buf[128];
	size_t len;
};

static void put(struct walk *w, const char *s)
{
	int n = snprintf(w->buf + w->len, sizeof w->buf - w->len, "%s%s", w->len ? " " : "", s);
	w->len += n > 0 && (size_t)n < sizeof w->buf - w->len ? (size_t)n : 0;
}

static void put_line(struct walk *w, struct context *c, uint64_t i, char kind)
{
	char s[24];
	snprintf(s, sizeof s, "%llu%c", (unsigned long long)i, kind);
	put(w, s);
	context_output(c, i + 1);
}

static uint64_t line_before(void *ctx, uint64_t end)
{
	(void)ctx;
	return end - 1;
}

/* As search_lines.c walks a window, line by line. */
static void walk_case(const struct context_case *t)
{
	struct search_options opt = {
		.after = t->after, .before = t->before, .max_count = t->max_count,
		.group_separator = t->no_separator ? NULL : "--",
	};
	struct context c = context_begin(&opt);
	struct walk w = { .len = 0 };
	bool output = t->output_before;
	for (uint64_t i = 0; t->lines[i] && !(c.outleft <= 0 && c.pending <= 0); i++) {
		char kind = t->lines[i];
		if (kind != 's' || c.outleft <= 0) {
			if (c.pending > 0) {
				bool printed = kind != 'x';
				if (printed)
					put_line(&w, &c, i, '-');
				context_after_line(&c, printed);
			}
			continue;
		}
		uint64_t first = context_on(&opt) ? context_before_start(&c, &opt, i, 0, line_before, NULL) : i;
		if (context_on(&opt) && context_apart(&c, &opt, first) && output)
			put(&w, "--");
		for (uint64_t p = first; p < i; p++)
			put_line(&w, &c, p, '-');
		put_line(&w, &c, i, ':');
		context_selected(&c, &opt);
		output = true;
		if (context_count_selected(&c) && context_finished(&c))
			break;
	}
	CHECK(strcmp(w.buf, t->output) == 0, "%s: output \"%s\", expected \"%s\"", t->name, w.buf,
	      t->output);
}

static uint64_t unknown_before(void *ctx, uint64_t end)
{
	uint64_t *known_from = ctx;
	return end - 1 >= *known_from ? end - 1 : CONTEXT_NONE;
}

static void test_before_start(void)
{
	struct search_options opt = { .after = -1, .before = 3, .max_count = -1, .group_separator = "--" };
	struct context c = context_begin(&opt);
	uint64_t known_from = 0;
	CHECK(context_before_start(&c, &opt, 10, 0, unknown_before, &known_from) == 7, "3 lines back");
	CHECK(context_before_start(&c, &opt, 10, 9, unknown_before, &known_from) == 9, "the floor");
	CHECK(context_before_start(&c, &opt, 1, 0, unknown_before, &known_from) == 0, "the input's start");
	c.lastout = 8;
	CHECK(context_before_start(&c, &opt, 10, 0, unknown_before, &known_from) == 8, "the last output");
	CHECK(context_before_start(&c, &opt, 8, 0, unknown_before, &known_from) == 8,
	      "right after the last output: none");
	CHECK(!context_apart(&c, &opt, 8) && context_apart(&c, &opt, 9), "apart from the last output");
	c.lastout = CONTEXT_NONE;
	known_from = 9;
	CHECK(context_before_start(&c, &opt, 10, 0, unknown_before, &known_from) == CONTEXT_NONE,
	      "a line the caller does not know");
	CHECK(context_pending_from(&c, 5) == 5 && c.lastout == 5, "pending: nothing output yet");
	CHECK(context_pending_from(&c, 3) == 5, "pending: after the last output");
	CHECK(context_pending_from(&c, 7) == 7 && c.lastout == 5, "pending: from a later window");
	opt.before = -1;
	CHECK(context_before_start(&c, &opt, 10, 0, unknown_before, &known_from) == 10, "no -B");
	CHECK(!context_apart(&c, &opt, 3), "no context given: never apart");
}

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		walk_case(&cases[i]);
	test_before_start();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
