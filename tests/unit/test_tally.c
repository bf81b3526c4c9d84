/* SPDX-License-Identifier: MIT */
/* test_tally.c - tests of the searching thread's per-key counts
 * (src/grep/search/tally.c) and of a search that keeps them (saved and
 * restored with the search by the input's undo log).
 *
 * - rows: a pattern list, options and lines credited one by one
 *   (tally_line) give the rows expected: leftmost-longest or every
 *   occurrence, the empty pattern, duplicates, -w, -x, tags; and
 *   --all-patterns's keys seen;
 * - saves: what was credited after tally_save is taken back by
 *   tally_restore, rows made since forgotten, older rows restored;
 * - a mapped file truncated between its opening and its search faults
 *   in the middle of the counts: the rows must be those of a read()
 *   search of the shorter file, for cuts inside lines and at page ends.
 * Every case on every scan path.  Prints "N passed, N failed"; exits
 * non-zero on any failure.
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ac.h"
#include "check.h"
#include "input/input.h"
#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "narrow.h"
#include "output/print.h"
#include "pattern_list.h"
#include "search/search.h"
#include "search/tally.h"

#define P(s) { .bytes = s, .len = sizeof(s) - 1 }

/* key, matches, lines, in key order */
struct want_row {
	uint32_t key;
	uint64_t matches, lines;
};

struct tcase {
	const char *name;
	const char *flags;      /* i w x, o (--overlapping), a (--all-patterns only) */
	struct pattern pats[5];
	size_t n_pats;
	const char *lines[4];   /* each credited as a matching line */
	struct want_row want[5];
	size_t n_want;
};

static const struct tcase cases[] = {
	{ .name = "leftmost-longest: he inside she is not a match",
	  .pats = { P("he"), P("she"), P("his"), P("hers") }, .n_pats = 4,
	  .lines = { "ushers\n", "hishe\n", "she he\n" },
	  .want = { { 0, 2, 2 }, { 1, 2, 2 }, { 2, 1, 1 } }, .n_want = 3 },
	{ .name = "--overlapping: every occurrence", .flags = "o",
	  .pats = { P("he"), P("she"), P("his"), P("hers") }, .n_pats = 4,
	  .lines = { "ushers\n", "hishe\n" },
	  .want = { { 0, 2, 2 }, { 1, 2, 2 }, { 2, 1, 1 }, { 3, 1, 1 } }, .n_want = 4 },
	{ .name = "duplicates count in the first", .pats = { P("a"), P("b"), P("a") }, .n_pats = 3,
	  .lines = { "aab\n", "b\n" }, .want = { { 0, 2, 1 }, { 1, 2, 2 } }, .n_want = 2 },
	{ .name = "-i: equal under -i count in the first", .flags = "i",
	  .pats = { P("Ab"), P("aB") }, .n_pats = 2, .lines = { "ab AB\n" },
	  .want = { { 0, 2, 1 } }, .n_want = 1 },
	{ .name = "the empty pattern occurs, counting no match", .pats = { P(""), P("b") },
	  .n_pats = 2, .lines = { "ab\n", "x\n", "b" },
	  .want = { { 0, 0, 3 }, { 1, 2, 2 } }, .n_want = 2 },
	{ .name = "-w: only whole words", .flags = "w", .pats = { P("ab"), P("a") }, .n_pats = 2,
	  .lines = { "ab abc a\n" }, .want = { { 0, 1, 1 }, { 1, 1, 1 } }, .n_want = 2 },
	{ .name = "-x: the line's pattern", .flags = "x", .pats = { P("a"), P("ab") }, .n_pats = 2,
	  .lines = { "ab\n", "a\n", "ab" }, .want = { { 0, 1, 1 }, { 1, 2, 2 } }, .n_want = 2 },
	{ .name = "--all-patterns: every occurrence is seen, nothing counted", .flags = "a",
	  .pats = { P("he"), P("she") }, .n_pats = 2, .lines = { "she\n" },
	  .want = { { 0, 0, 0 }, { 1, 0, 0 } }, .n_want = 2 },
};

static struct config case_config(const char *flags, const struct pattern *pats, size_t n,
				 int scan_path)
{
	return (struct config){
		.patterns = pattern_list(pats, n),
		.ignore_case = strchr(flags, 'i') != NULL,
		.word_regexp = strchr(flags, 'w') != NULL,
		.line_regexp = strchr(flags, 'x') != NULL,
		.overlapping = strchr(flags, 'o') != NULL,
		.count_per_pattern = strchr(flags, 'a') == NULL,
		.all_patterns = strchr(flags, 'a') != NULL,
		.max_count = -1,
		.before = -1,
		.after = -1,
		.scan_path = scan_path,
	};
}

static int by_key(const void *a, const void *b)
{
	uint32_t x = ((const struct tally_row *)a)->key, y = ((const struct tally_row *)b)->key;
	return (x > y) - (x < y);
}

/* Whether rows (sorted here) are the n wanted. */
static bool rows_are(struct tally_rows *rows, const struct want_row *want, size_t n)
{
	if (rows->n != n)
		return false;
	qsort(rows->row, rows->n, sizeof *rows->row, by_key);
	for (size_t i = 0; i < n; i++)
		if (rows->row[i].key != want[i].key || rows->row[i].matches != want[i].matches ||
		    rows->row[i].lines != want[i].lines)
			return false;
	return true;
}

/* Everything a case needs: the config, its keys, matcher and tally. */
struct rig {
	struct config cfg;
	struct search_options opt;
	struct pattern_keys keys;
	struct matcher *m;
	struct tally *t;
};

static bool rig_up(struct rig *r, const char *flags, const struct pattern *pats, size_t n, int path)
{
	r->cfg = case_config(flags, pats, n, path);
	const char *error = NULL;
	if (pattern_keys_init(&r->keys, &r->cfg.patterns, &r->cfg.tags, r->cfg.syntax) != 0 ||
	    !(r->m = matcher_for_config(&r->cfg, &r->cfg.patterns, 1, &error))) {
		CHECK(false, "rig: %s", error ? error : "memory");
		return false;
	}
	pattern_keys_link(&r->keys, r->m);
	r->opt = search_options_of(&r->cfg);
	r->t = tally_new(&r->opt, &r->keys);
	return r->t != NULL;
}

static void rig_down(struct rig *r)
{
	tally_free(r->t);
	matcher_free(r->m);
	pattern_keys_free(&r->keys);
}

static void credit_text(struct rig *r, const char *text)
{
	size_t len = strlen(text);
	tally_line(r->t, r->m, text, 0, len, '\n', false);
}

static void run_case(const struct tcase *c)
{
	for (int path = AC_PATH_AUTO; path <= AC_PATH_HASH; path++) {
		struct rig r;
		if (!rig_up(&r, c->flags ? c->flags : "", c->pats, c->n_pats, path))
			continue;
		for (size_t i = 0; i < 4 && c->lines[i]; i++)
			credit_text(&r, c->lines[i]);
		CHECK(tally_pending(r.t) == (r.cfg.count_per_pattern || c->n_want < c->n_pats),
		      "%s: pending", c->name);
		struct tally_rows rows = tally_take(r.t);
		CHECK(rows_are(&rows, c->want, c->n_want), "%s (path %d): %zu rows", c->name, path,
		      rows.n);
		tally_rows_free(&rows);
		rows = tally_take(r.t);
		CHECK(rows.n == 0 && rows.row == NULL, "%s: taken, the tally is empty", c->name);
		rig_down(&r);
	}
}

/* Tags: a key is the tag; its lines count once however many of its
 * patterns a line holds. */
static void tags(void)
{
	struct pattern pats[] = { P("evil.com"), P("bad.org"), P("worse.net") };
	struct pattern names[] = { P("apt1"), P("apt2") };
	uint32_t of[] = { 0, 1, 1 };
	struct rig r;
	r.cfg = case_config("", pats, 3, 0);
	r.cfg.tags = (struct pattern_tags){ .names = pattern_list(names, 2), .of = of };
	const char *error;
	CHECK(pattern_keys_init(&r.keys, &r.cfg.patterns, &r.cfg.tags, r.cfg.syntax) == 0, "tags: keys");
	r.m = matcher_for_config(&r.cfg, &r.cfg.patterns, 1, &error);
	pattern_keys_link(&r.keys, r.m);
	r.opt = search_options_of(&r.cfg);
	r.t = tally_new(&r.opt, &r.keys);
	credit_text(&r, "bad.org worse.net evil.com\n");
	credit_text(&r, "bad.org\n");
	struct tally_rows rows = tally_take(r.t);
	struct want_row want[] = { { 0, 1, 1 }, { 1, 3, 2 } };
	CHECK(rows_are(&rows, want, 2), "tags: rows per tag (%zu)", rows.n);
	tally_rows_free(&rows);
	rig_down(&r);
	pattern_list_free(&r.cfg.tags.names);
}

/* What tally_restore takes back. */
static void saves(void)
{
	struct pattern pats[] = { P("a"), P("b"), P("c") };
	struct rig r;
	if (!rig_up(&r, "", pats, 3, 0))
		return;
	credit_text(&r, "a b\n");
	tally_save(r.t);
	credit_text(&r, "a a c\n");
	credit_text(&r, "b\n");
	tally_restore(r.t);
	credit_text(&r, "a\n");
	tally_save(r.t);
	credit_text(&r, "c c\n");
	tally_restore(r.t);
	tally_restore(r.t); /* twice: nothing more */
	struct tally_rows rows = tally_take(r.t);
	struct want_row want[] = { { 0, 2, 2 }, { 1, 1, 1 } };
	CHECK(rows_are(&rows, want, 2), "saves: rows after restores (%zu)", rows.n);
	tally_rows_free(&rows);
	rig_down(&r);
}

/* ---- a mapped file that shrinks under the search ---- */

static char tmpdir[] = "/tmp/acgrep-test-tally-XXXXXX";

/* The rows of a search of `file` (mapped, or read() in chunks of 3),
 * truncated to `cut` bytes once opened unless cut is SIZE_MAX. */
static struct tally_rows search_rows(struct rig *r, const char *file, enum input_io io, size_t cut)
{
	struct outbuf ob;
	outbuf_init(&ob, false);
	struct printer pr;
	const struct print_options po = print_options_of(&r->cfg);
	printer_init(&pr, &ob, &po, r->m, &r->keys);
	struct searcher s = {
		.opt = &r->opt, .matcher = r->m, .keys = &r->keys, .tally = r->t, .sink = printer_sink(&pr),
	};
	struct input_options io_opt = { .io = io, .read_chunk = io == INPUT_IO_READ ? 3 : 0, .eol = '\n' };
	struct input in;
	struct search_result res = { .tally = { .row = NULL } };
	if (input_open(&in, file, &io_opt) == 0) {
		if (cut != SIZE_MAX && truncate(file, (off_t)cut) != 0)
			perror(file);
		search_input(&s, &in, file, false, &res);
		input_close(&in);
	}
	printer_free(&pr);
	outbuf_free(&ob);
	return res.tally;
}

static void shrinking(void)
{
	struct pattern pats[] = { P("needle"), P("eed"), P("hay"), P("") };
	char file[300];
	snprintf(file, sizeof file, "%s/hay", tmpdir);
	size_t len = 0;
	char *text = malloc(64 << 10);
	for (int i = 0; len < (60 << 10); i++)
		len += (size_t)sprintf(text + len, i % 3 ? "line %d hay needle eed needle\n" : "%d hay\n", i);
	static const size_t cuts[] = { 4096, 4097, 8191, 12300, 30001, 45000 };
	static const char *const flag_sets[] = { "", "o" };
	for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
		for (size_t k = 0; k < 2; k++) {
			const char *flags = flag_sets[k];
			struct rig r;
			if (!rig_up(&r, flags, pats, 4, 0))
				continue;
			FILE *f = fopen(file, "wb");
			fwrite(text, 1, cuts[c], f);
			fclose(f);
			struct tally_rows want = search_rows(&r, file, INPUT_IO_READ, SIZE_MAX);
			f = fopen(file, "wb");
			fwrite(text, 1, len, f);
			fclose(f);
			struct tally_rows got = search_rows(&r, file, INPUT_IO_MMAP, cuts[c]);
			bool same = want.n == got.n && want.n > 0;
			qsort(want.row, want.n, sizeof *want.row, by_key);
			qsort(got.row, got.n, sizeof *got.row, by_key);
			for (size_t i = 0; same && i < want.n; i++)
				same = want.row[i].key == got.row[i].key &&
				       want.row[i].matches == got.row[i].matches &&
				       want.row[i].lines == got.row[i].lines;
			CHECK(same, "shrinking to %zu bytes (%s): the shorter file's rows", cuts[c],
			      flags[0] ? "--overlapping" : "leftmost-longest");
			tally_rows_free(&want);
			tally_rows_free(&got);
			rig_down(&r);
		}
	}
	unlink(file);
	free(text);
}

/* ThreadSanitizer cannot hand the SIGBUS of a truncated mapping to the
 * input guard (see test_search.c). */
#if defined(__SANITIZE_THREAD__)
#define TRUNCATION_TESTED 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TRUNCATION_TESTED 0
#endif
#endif
#ifndef TRUNCATION_TESTED
#define TRUNCATION_TESTED 1
#endif

int main(void)
{
	setlocale(LC_ALL, "C");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
	tags();
	saves();
	if (TRUNCATION_TESTED && mkdtemp(tmpdir)) {
		input_guard_install();
		shrinking();
		rmdir(tmpdir);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
