/* SPDX-License-Identifier: MIT */
/* test_overlap.c - tests of matcher_each_overlapping (src/grep/match/
 * matcher_overlap.c, and matcher_fold.c's folded windows): every
 * occurrence of every pattern, in the order the contract promises.
 *
 * Fixed cases (-i, -w, -x, the empty pattern, duplicates, UTF-8 folding)
 * name each occurrence expected; then random pattern sets over small
 * alphabets are checked against a brute-force oracle that tries every
 * pattern at every position, under no option, -i, -w and -x, in the C
 * locale.  Every case runs on every scan path and with the scalar
 * prefilters.  Prints "N passed, N failed"; exits non-zero on any failure.
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ac.h"
#include "check.h"
#include "match/matcher.h"
#include "narrow.h"
#include "pattern_list.h"

#define P(s) { .bytes = s, .len = sizeof(s) - 1 }
#define MAX_OCC 4096

struct occ {
	size_t start, end;
	uint32_t pattern;
};

struct ocase {
	const char *name;
	bool utf8;             /* C.UTF-8, else C */
	const char *flags;     /* i w x */
	struct pattern pats[5];
	size_t n_pats;
	const char *text;
	size_t from;
	struct occ want[12];
	size_t n_want;
};

static const struct ocase cases[] = {
	{ .name = "ushers: inside and overlapping, by start, longest first",
	  .pats = { P("he"), P("she"), P("his"), P("hers") }, .n_pats = 4, .text = "ushers\n",
	  .want = { { 1, 4, 1 }, { 2, 6, 3 }, { 2, 4, 0 } }, .n_want = 3 },
	{ .name = "repeats overlap", .pats = { P("aa") }, .n_pats = 1, .text = "aaaa",
	  .want = { { 0, 2, 0 }, { 1, 3, 0 }, { 2, 4, 0 } }, .n_want = 3 },
	{ .name = "from: only occurrences starting there or later", .pats = { P("ab"), P("b") },
	  .n_pats = 2, .text = "abab", .from = 1,
	  .want = { { 1, 2, 1 }, { 2, 4, 0 }, { 3, 4, 1 } }, .n_want = 3 },
	{ .name = "duplicates report once, as the first", .pats = { P("x"), P("ab"), P("ab") },
	  .n_pats = 3, .text = "ab", .want = { { 0, 2, 1 } }, .n_want = 1 },
	{ .name = "-i: equal under -i are one", .flags = "i", .pats = { P("AB"), P("ab"), P("b") },
	  .n_pats = 3, .text = "aB", .want = { { 0, 2, 0 }, { 1, 2, 2 } }, .n_want = 2 },
	{ .name = "-w: each occurrence judged on its own", .flags = "w",
	  .pats = { P("a b"), P("a"), P("b"), P("ab") }, .n_pats = 4, .text = "a b ab\n",
	  .want = { { 0, 3, 0 }, { 0, 1, 1 }, { 2, 3, 2 }, { 4, 6, 3 } }, .n_want = 4 },
	{ .name = "-x: only whole lines", .flags = "x", .pats = { P("a"), P("ab"), P("b") },
	  .n_pats = 3, .text = "ab\nb\n", .want = { { 0, 2, 1 }, { 3, 4, 2 } }, .n_want = 2 },
	{ .name = "the empty pattern: an occurrence at every position", .pats = { P(""), P("b") },
	  .n_pats = 2, .text = "ab",
	  .want = { { 0, 0, 0 }, { 1, 2, 1 }, { 1, 1, 0 }, { 2, 2, 0 } }, .n_want = 4 },
	{ .name = "-x: the empty pattern on empty lines (and after the last, as find)",
	  .flags = "x", .pats = { P("") }, .n_pats = 1, .text = "a\n\nb\n",
	  .want = { { 2, 2, 0 }, { 5, 5, 0 } }, .n_want = 2 },
	{ .name = "UTF-8 -i: folded occurrences in text offsets", .utf8 = true, .flags = "i",
	  .pats = { P("\xc3\xa9t\xc3\xa9"), P("t\xc3\x89"), P("\xc3\x89T\xc3\x89") }, .n_pats = 3,
	  .text = "x\xc3\x89T\xc3\xa9 \xc3\xa9t\xc3\xa9\n",
	  .want = { { 1, 6, 0 }, { 3, 6, 1 }, { 7, 12, 0 }, { 9, 12, 1 } }, .n_want = 4 },
	{ .name = "UTF-8 -i: long s folds to s", .utf8 = true, .flags = "i",
	  .pats = { P("s"), P("SS") }, .n_pats = 2, .text = "\xc5\xbfs",
	  .want = { { 0, 3, 1 }, { 0, 2, 0 }, { 2, 3, 0 } }, .n_want = 3 },
	{ .name = "UTF-8 -i -w: word neighbours are the locale's", .utf8 = true, .flags = "iw",
	  .pats = { P("\xc3\xa9t\xc3\xa9"), P("t\xc3\xa9") }, .n_pats = 2,
	  .text = "\xc3\x89T\xc3\x89 t\xc3\xa9\n", .want = { { 0, 5, 0 }, { 6, 9, 1 } },
	  .n_want = 2 },
};

struct collect {
	struct occ occ[MAX_OCC];
	size_t n;
	size_t stop_after; /* 0: never stop */
};

static int collect(const struct matcher_hit *hit, void *ctx)
{
	struct collect *c = ctx;
	if (c->n < MAX_OCC)
		c->occ[c->n] = (struct occ){ hit->start, hit->end, hit->pattern };
	c->n++;
	return c->stop_after && c->n == c->stop_after ? 7 : 0;
}

static struct matcher *build(const struct pattern *pats, size_t n, const char *flags, bool utf8,
			     int path, int simd)
{
	struct config cfg = {
		.patterns = pattern_list(pats, n),
		.ignore_case = strchr(flags, 'i') != NULL,
		.word_regexp = strchr(flags, 'w') != NULL,
		.line_regexp = strchr(flags, 'x') != NULL,
		.utf8_locale = utf8,
		.scan_path = path,
		.simd = simd,
	};
	const char *error = NULL;
	struct matcher *m = matcher_for_config(&cfg, &cfg.patterns, 1, &error);
	CHECK(m != NULL, "matcher: %s", error ? error : "");
	return m;
}

static bool same_occ(const struct collect *got, const struct occ *want, size_t n_want)
{
	if (got->n != n_want)
		return false;
	for (size_t i = 0; i < n_want; i++)
		if (got->occ[i].start != want[i].start || got->occ[i].end != want[i].end ||
		    got->occ[i].pattern != want[i].pattern)
			return false;
	return true;
}

static void run_case(const struct ocase *c)
{
	for (int path = AC_PATH_AUTO; path <= AC_PATH_HASH; path++) {
		for (int simd = SIMD_BEST; simd <= SIMD_SCALAR; simd++) {
			struct matcher *m = build(c->pats, c->n_pats, c->flags ? c->flags : "", c->utf8,
						  path, simd);
			if (!m)
				continue;
			static struct collect got;
			got.n = 0;
			got.stop_after = 0;
			matcher_each_overlapping(m, c->text, strlen(c->text), c->from, collect, &got);
			CHECK(same_occ(&got, c->want, c->n_want), "%s (path %d, simd %d): %zu occurrences",
			      c->name, path, simd, got.n);
			if (c->n_want > 1) { /* the callback's answer stops it */
				got.n = 0;
				got.stop_after = 2;
				int rc = matcher_each_overlapping(m, c->text, strlen(c->text), c->from,
								  collect, &got);
				CHECK(rc == 7 && got.n == 2, "%s (path %d): stops at the callback's word",
				      c->name, path);
			}
			matcher_free(m);
		}
	}
}

/* ---- random sets against a brute-force oracle (C locale) ---- */

static unsigned long long rng_state = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

static bool word_char(char ch)
{
	unsigned char c = (unsigned char)ch;
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_';
}

static bool equal_bytes(const char *a, const char *b, size_t n, bool icase)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = b[i];
		if (icase && x >= 'A' && x <= 'Z')
			x = (char)(x + 32);
		if (icase && y >= 'A' && y <= 'Z')
			y = (char)(y + 32);
		if (x != y)
			return false;
	}
	return true;
}

static int cmp_occ(const void *pa, const void *pb)
{
	const struct occ *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return a->pattern < b->pattern ? -1 : a->pattern > b->pattern;
}

/* Every (start, end) where some pattern occurs and qualifies, named by
 * the first pattern equal to the text there, in the contract's order. */
static size_t oracle(const struct pattern *pats, size_t n, const char *text, size_t len,
		     const char *flags, struct occ *out)
{
	bool icase = strchr(flags, 'i'), word = strchr(flags, 'w'), line = strchr(flags, 'x');
	size_t k = 0;
	for (size_t s = 0; s <= len; s++) {
		for (size_t p = 0; p < n; p++) {
			size_t e = s + pats[p].len;
			if (e > len || !equal_bytes(pats[p].bytes, text + s, pats[p].len, icase))
				continue;
			bool first = true;
			for (size_t q = 0; q < p && first; q++)
				first = !(pats[q].len == pats[p].len &&
					  equal_bytes(pats[q].bytes, pats[p].bytes, pats[p].len, icase));
			if (!first)
				continue;
			bool ls = s == 0 || text[s - 1] == '\n', le = e == len || text[e] == '\n';
			if (line ? !(ls && le)
				 : word && ((s > 0 && word_char(text[s - 1])) ||
					    (e < len && word_char(text[e]))))
				continue;
			out[k++] = (struct occ){ s, e, (uint32_t)p };
		}
	}
	qsort(out, k, sizeof *out, cmp_occ);
	return k;
}

static void random_sets(void)
{
	static const char *const flag_sets[] = { "", "i", "w", "x", "iw" };
	static char pat_bytes[8][8];
	static char text[200];
	static struct occ want[MAX_OCC];
	static struct collect got;
	const char alphabet[] = "abAB \n";
	for (int round = 0; round < 300; round++) {
		struct pattern pats[8];
		size_t n = 1 + rnd(7);
		for (size_t i = 0; i < n; i++) {
			size_t len = rnd(5) == 0 && i > 0 ? pats[rnd((unsigned)i)].len : 1 + rnd(4);
			for (size_t j = 0; j < len; j++)
				pat_bytes[i][j] = alphabet[rnd(4 + (j > 0))]; /* no newline */
			if (i > 0 && rnd(6) == 0) /* a duplicate, or a prefix of one */
				memcpy(pat_bytes[i], pat_bytes[rnd((unsigned)i)], len);
			pats[i] = (struct pattern){ .bytes = pat_bytes[i], .len = len };
		}
		size_t len = rnd(sizeof text);
		for (size_t j = 0; j < len; j++)
			text[j] = alphabet[rnd(sizeof alphabet - 1)];
		const char *flags = flag_sets[rnd(5)];
		size_t n_want = oracle(pats, n, text, len, flags, want);
		int path = (int)rnd(AC_PATH_HASH + 1);
		struct matcher *m = build(pats, n, flags, false, path, rnd(2) ? SIMD_SCALAR : SIMD_BEST);
		if (!m)
			continue;
		got.n = 0;
		got.stop_after = 0;
		matcher_each_overlapping(m, text, len, 0, collect, &got);
		CHECK(same_occ(&got, want, n_want), "random round %d (flags '%s', path %d): %zu, want %zu",
		      round, flags, path, got.n, n_want);
		matcher_free(m);
	}
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
	random_sets();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
