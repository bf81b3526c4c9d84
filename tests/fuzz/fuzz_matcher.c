/* SPDX-License-Identifier: MIT */
/* fuzz_matcher.c - libFuzzer target: the Aho-Corasick matcher (matcher.h)
 * against a brute-force oracle and against itself under every scan path.
 *
 * Owns: decoding a fuzz input into a pattern list, a text and match
 * options; the queries the search driver and the printer make of a
 * matcher (matcher_find exact and not from many positions, search.c's walk
 * over lines, matcher_each over the buffer, over each line alone as
 * print.c calls it and over each line inside the buffer as --count-matches
 * does, with matcher_count_each's count of it; matcher_each_overlapping
 * over the buffer and each line in it, as --overlapping asks); and the
 * comparison of their transcripts.  Every input is compiled
 * with each scan path and vector kernel (strategies[]; once more on two
 * compile threads where the input asks for them); the first one's
 * transcript must equal naive.c's wherever naive.c knows the answer, and
 * every other strategy's must equal the first's everywhere.  -v, -c and
 * -o are views of these transcripts (inverted walk, its length, each per
 * line), so comparing the transcripts covers them.
 *
 * Input layout (fuzz_format.h has the bits):
 *   byte 0  options: -i -w -x -z, NUL ends lines, grep's kwset -w rules
 *           (else its regex-matcher rules), UTF-8, 2 threads
 *   byte 1  generated patterns: substrings of the text, prefixes and
 *           suffixes of the listed patterns; substring length and stride
 *   byte 2-3  length of the pattern section (10 bits); a seed (6 bits)
 *   then the pattern section, split on the line terminator, then the text.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ac.h"
#include "fuzz_format.h"
#include "fuzz_target.h"
#include "match/matcher.h"
#include "naive.h"
#include "pattern_list.h"

/* Each compiled strategy: a scan path, a cap on the vector kernels, and
 * the compile threads (two only where the input asks: FUZZ_THREADS). */
static const struct strategy {
	enum ac_scan_path path;
	enum simd_level simd;
	const char *name;
	bool threads;
} strategies[] = {
	{ .path = AC_PATH_DFA, .simd = SIMD_SCALAR, .name = "dfa" },
	{ .path = AC_PATH_AUTO, .simd = SIMD_BEST, .name = "auto" },
	{ .path = AC_PATH_AUTO, .simd = SIMD_SCALAR, .name = "auto/scalar" },
	{ .path = AC_PATH_BITMAP, .simd = SIMD_SCALAR, .name = "bitmap/scalar" },
	{ .path = AC_PATH_BITMAP, .simd = SIMD_AVX2, .name = "bitmap/avx2" },
	{ .path = AC_PATH_BITMAP, .simd = SIMD_AVX512, .name = "bitmap/avx512" },
	{ .path = AC_PATH_MEMCHR, .simd = SIMD_BEST, .name = "memchr" },
	{ .path = AC_PATH_TEDDY, .simd = SIMD_SCALAR, .name = "teddy/scalar" },
	{ .path = AC_PATH_TEDDY, .simd = SIMD_SSSE3, .name = "teddy/ssse3" },
	{ .path = AC_PATH_TEDDY, .simd = SIMD_AVX2, .name = "teddy/avx2" },
	{ .path = AC_PATH_TEDDY, .simd = SIMD_AVX512, .name = "teddy/avx512" },
	{ .path = AC_PATH_TEDDY, .simd = SIMD_NEON, .name = "teddy/neon" },
	{ .path = AC_PATH_HASH, .simd = SIMD_SCALAR, .name = "hash/scalar" },
	{ .path = AC_PATH_HASH, .simd = SIMD_SSSE3, .name = "hash/ssse3" }, /* the shift-or filter */
	{ .path = AC_PATH_HASH, .simd = SIMD_AVX2, .name = "hash/avx2" },
	{ .path = AC_PATH_HASH, .simd = SIMD_AVX512, .name = "hash/avx512" },
	{ .path = AC_PATH_AUTO, .simd = SIMD_BEST, .name = "auto/2 threads", .threads = true },
};
#define N_STRATEGIES (sizeof strategies / sizeof *strategies)

/* ---- decoding ---- */

struct fuzz_case {
	struct match_options mo;
	struct pattern *pats;
	size_t n_pats;
	char *text; /* exactly text_len bytes from malloc: ASan sees overreads */
	size_t text_len;
	unsigned seed;
	size_t budget; /* pattern bytes still allowed (see FUZZ_MAX_PATTERN_BYTES) */
};

/* May p be handed to the matcher?  Never holding the line terminator, nor
 * a NUL where NUL ends lines (main.c drops those). */
static bool usable(const struct fuzz_case *fc, const char *p, size_t len)
{
	return !memchr(p, fc->mo.eol, len) && !(fc->mo.nul_ends_lines && memchr(p, '\0', len));
}

static void add_pattern(struct fuzz_case *fc, const char *p, size_t len)
{
	if (fc->n_pats < FUZZ_MAX_PATTERNS && len <= fc->budget && usable(fc, p, len)) {
		fc->pats[fc->n_pats++] = (struct pattern){ .bytes = p, .len = len };
		fc->budget -= len;
	}
}

/* Returns false for an input too short to decode.  Pattern bytes point
 * into data or fc->text. */
static bool decode(struct fuzz_case *fc, const uint8_t *data, size_t size)
{
	if (size < FUZZ_HEADER)
		return false;
	uint8_t o = data[0], g = data[1];
	bool word = o & FUZZ_WORD, line = o & FUZZ_LINE, icase = o & FUZZ_ICASE;
	char eol = (o & FUZZ_NULL_DATA) ? '\0' : '\n';
	bool kwset = o & FUZZ_KWSET;
	fc->mo = (struct match_options){
		.ignore_case = icase,
		.word = word,
		.line = line,
		.utf8 = o & FUZZ_UTF8,
		.eol = eol,
		.nul_ends_lines = eol == '\n' && (o & FUZZ_NUL_ENDS_LINES),
		.word_ignores_before_from = word && !line && kwset,
		.word_regex_rules = word && !line && !kwset,
		.threads = (o & FUZZ_THREADS) ? 2 : 1,
	};
	size_t plen = (size_t)data[2] | (size_t)(data[3] & 3) << 8;
	fc->seed = data[3] >> 2;
	data += FUZZ_HEADER;
	size -= FUZZ_HEADER;
	if (plen > size)
		plen = size;
	const char *sec = (const char *)data;
	fc->text_len = size - plen;
	fc->text = malloc(fc->text_len ? fc->text_len : 1);
	fc->pats = malloc(FUZZ_MAX_PATTERNS * sizeof *fc->pats);
	if (!fc->text || !fc->pats)
		abort();
	memcpy(fc->text, sec + plen, fc->text_len);
	fc->n_pats = 0;
	/* a two-thread compile needs 65,536 states: allow that many bytes */
	fc->budget = fc->mo.threads > 1 ? FUZZ_MAX_PATTERN_BYTES_THREADS : FUZZ_MAX_PATTERN_BYTES;
	for (size_t i = 0; plen > 0;) { /* the listed patterns */
		const char *sep = memchr(sec + i, eol, plen - i);
		size_t n = sep ? (size_t)(sep - (sec + i)) : plen - i;
		add_pattern(fc, sec + i, n);
		if (!sep)
			break;
		i += n + 1;
	}
	size_t listed = fc->n_pats;
	if (g & FUZZ_GEN_AFFIXES)
		for (size_t k = 0; k < listed; k++)
			for (size_t l = 1; l < fc->pats[k].len; l++) {
				add_pattern(fc, fc->pats[k].bytes, l);
				add_pattern(fc, fc->pats[k].bytes + l, fc->pats[k].len - l);
			}
	if (g & FUZZ_GEN_SUBSTRINGS) {
		size_t width = 1 + (g >> 2 & 7), stride = 1 + (g >> 5 & 7);
		for (size_t i = 0; i + width <= fc->text_len; i += stride)
			add_pattern(fc, fc->text + i, width);
	}
	return true;
}

/* ---- transcripts ---- */

enum rec_kind {
	REC_FIND,    /* matcher_find(exact): found, start, end */
	REC_LINE,    /* matcher_find(not exact): found, line of start */
	REC_WALK,    /* a line search.c selects */
	REC_EACH,    /* a match of matcher_each: start, end */
	REC_DONE,    /* the end of a query, with its count */
	REC_UNKNOWN, /* the oracle does not know: skip this query */
};

struct rec {
	uint32_t query;
	uint8_t kind;
	bool found;
	size_t x, y;
};

struct transcript {
	struct rec *r;
	size_t n, cap;
	uint32_t query;
};

static void push(struct transcript *t, enum rec_kind kind, bool found, size_t x, size_t y)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->r = realloc(t->r, t->cap * sizeof *t->r);
		if (!t->r)
			abort();
	}
	t->r[t->n++] = (struct rec){ .query = t->query, .kind = (uint8_t)kind, .found = found, .x = x, .y = y };
}

/* Who answers the queries: a compiled matcher, or the oracle. */
struct finder {
	const struct matcher *m;
	const struct naive *nv;
};

/* One find on buf = text + base (len bytes; a copy of them for the
 * matcher where base > 0). */
static enum naive_answer find(const struct finder *f, const char *buf, size_t base, size_t len, size_t from,
			      bool exact, size_t *s, size_t *e)
{
	if (!f->m)
		return naive_find(f->nv, base, len, from, exact, s, e);
	*s = *e = 0;
	return matcher_find(f->m, buf, len, from, exact, s, e) ? NAIVE_YES : NAIVE_NO;
}

/* matcher_each's callback: records the match; stops an iteration that
 * reports more matches than a buffer can hold (at most one per start). */
struct each_ctx {
	struct transcript *t;
	size_t len, left;
};

static int record_match(const struct matcher_hit *hit, void *ctx)
{
	size_t start = hit->start, end = hit->end;
	struct each_ctx *c = ctx;
	push(c->t, REC_EACH, true, start, end);
	if (c->left-- == 0) {
		fprintf(stderr, "matcher_each: more matches than a %zu-byte buffer can hold; last [%zu, %zu)\n",
			c->len, start, end);
		return 1;
	}
	return 0;
}

/* matcher_each from `from`: each match, then REC_DONE. */
static void each(const struct finder *f, struct transcript *t, const char *buf, size_t base, size_t len,
		 size_t from)
{
	size_t before = t->n;
	if (f->m) {
		struct each_ctx c = { .t = t, .len = len, .left = len - from + 1 };
		if (matcher_each(f->m, buf, len, from, record_match, &c) != 0)
			push(t, REC_EACH, false, SIZE_MAX, SIZE_MAX); /* never equal */
		/* --count-matches' count, where the matcher has one, without
		 * a memo and with one (counted twice: the second from what
		 * the first taught it): the non-empty matches just recorded */
		size_t non_empty = 0;
		for (size_t k = before; k < t->n; k++)
			non_empty += t->r[k].kind == REC_EACH && t->r[k].found && t->r[k].y > t->r[k].x;
		struct matcher_memo *memo = NULL;
		intmax_t counted[3] = {
			matcher_count_each(f->m, buf, len, from, NULL),
			matcher_count_each(f->m, buf, len, from, &memo),
			matcher_count_each(f->m, buf, len, from, &memo),
		};
		matcher_memo_free(memo);
		for (int k = 0; k < 3; k++)
			if (counted[k] >= 0 && (size_t)counted[k] != non_empty) {
				fprintf(stderr, "matcher_count_each from %zu (%s): %jd, matcher_each's non-empty matches: %zu\n",
					from, k ? "memo" : "no memo", counted[k], non_empty);
				push(t, REC_EACH, false, SIZE_MAX, SIZE_MAX); /* never equal */
			}
	} else {
		size_t s, e; /* matcher_each's definition, over the oracle */
		while (from <= len) {
			enum naive_answer a = naive_find(f->nv, base, len, from, true, &s, &e);
			if (a == NAIVE_UNKNOWN) {
				push(t, REC_UNKNOWN, false, 0, 0);
				break;
			}
			if (a == NAIVE_NO)
				break;
			push(t, REC_EACH, true, s, e);
			from = e > s ? e : e + 1;
		}
	}
	push(t, REC_DONE, true, t->n - before, 0);
	t->query++;
}

/* matcher_each_overlapping's callback: each occurrence as two records,
 * its bounds and its pattern; stops after `left` of them. */
static int record_occurrence(const struct matcher_hit *hit, void *ctx)
{
	struct each_ctx *c = ctx;
	push(c->t, REC_EACH, true, hit->start, hit->end);
	push(c->t, REC_EACH, false, hit->pattern, 0);
	return --c->left == 0;
}

/* matcher_each_overlapping from `from` (--overlapping): its first 4,096
 * occurrences, then REC_DONE.  The oracle does not know them: the
 * strategies are compared with each other. */
static void each_overlapping(const struct finder *f, struct transcript *t, const char *buf, size_t len,
			     size_t from)
{
	size_t before = t->n;
	if (f->m) {
		struct each_ctx c = { .t = t, .len = len, .left = 4096 };
		matcher_each_overlapping(f->m, buf, len, from, record_occurrence, &c);
	} else {
		push(t, REC_UNKNOWN, false, 0, 0);
	}
	push(t, REC_DONE, true, t->n - before, 0);
	t->query++;
}

struct lines {
	size_t *start; /* n + 1 entries: start[n] is one past the last line */
	size_t n;
};

static void split_lines(const struct fuzz_case *fc, struct lines *ln)
{
	ln->start = malloc((fc->text_len + 2) * sizeof *ln->start);
	if (!ln->start)
		abort();
	ln->n = 0;
	for (size_t p = 0; p < fc->text_len;) {
		ln->start[ln->n++] = p;
		const char *nl = memchr(fc->text + p, fc->mo.eol, fc->text_len - p);
		p = nl ? (size_t)(nl - fc->text) + 1 : fc->text_len;
	}
	ln->start[ln->n] = fc->text_len;
}

/* The line holding position pos: a line's terminator belongs to it, and
 * pos = len to the last line, or to the empty line after it (number
 * ln->n) when the text ends with a terminator or is empty. */
static size_t line_of(const struct fuzz_case *fc, const struct lines *ln, size_t pos)
{
	if (pos >= fc->text_len && (ln->n == 0 || fc->text[fc->text_len - 1] == fc->mo.eol))
		return ln->n;
	size_t lo = 0, hi = ln->n - 1;
	while (lo < hi) { /* the last line starting at or before pos */
		size_t mid = lo + (hi - lo + 1) / 2;
		if (ln->start[mid] <= pos)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Positions the find queries start from: all of them in a short text,
 * else the first line starts and some chosen by the input's seed. */
static size_t pick_positions(const struct fuzz_case *fc, const struct lines *ln, size_t *pos)
{
	size_t n = 0;
	if (fc->text_len <= FUZZ_ALL_POSITIONS) {
		for (size_t p = 0; p <= fc->text_len; p++)
			pos[n++] = p;
		return n;
	}
	for (size_t i = 0; i < ln->n && i < FUZZ_SAMPLES; i++)
		pos[n++] = ln->start[i];
	uint32_t x = 2463534242u ^ fc->seed;
	for (size_t i = 0; i < FUZZ_SAMPLES; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		pos[n++] = x % (fc->text_len + 1);
	}
	pos[n++] = fc->text_len;
	return n;
}

static void run_queries(const struct finder *f, const struct fuzz_case *fc, const struct lines *ln,
			const size_t *pos, size_t n_pos, struct transcript *t)
{
	const char *buf = fc->text;
	size_t len = fc->text_len, s, e;
	for (size_t i = 0; i < n_pos; i++, t->query++) {
		enum naive_answer a = find(f, buf, 0, len, pos[i], true, &s, &e);
		if (a == NAIVE_UNKNOWN)
			push(t, REC_UNKNOWN, false, 0, 0);
		else
			push(t, REC_FIND, a == NAIVE_YES, a == NAIVE_YES ? s : 0, a == NAIVE_YES ? e : 0);
		a = find(f, buf, 0, len, pos[i], false, &s, &e);
		if (a == NAIVE_UNKNOWN)
			push(t, REC_UNKNOWN, false, 0, 0);
		else if (a == NAIVE_YES && s > len)
			push(t, REC_LINE, true, SIZE_MAX, s); /* out of bounds: never equal */
		else
			push(t, REC_LINE, a == NAIVE_YES, a == NAIVE_YES ? line_of(fc, ln, s) : 0, 0);
	}
	/* search.c's walk: the first match from each line start, line by line */
	for (size_t p = 0; p < len;) {
		enum naive_answer a = find(f, buf, 0, len, p, false, &s, &e);
		if (a == NAIVE_UNKNOWN) {
			push(t, REC_UNKNOWN, false, 0, 0);
			break;
		}
		if (a == NAIVE_NO || (s == len && buf[len - 1] == fc->mo.eol))
			break;
		if (s > len || s < p) {
			push(t, REC_WALK, false, SIZE_MAX, s);
			break;
		}
		size_t k = line_of(fc, ln, s);
		push(t, REC_WALK, true, k, 0);
		p = k < ln->n ? ln->start[k + 1] : len;
	}
	t->query++;
	each(f, t, buf, 0, len, 0);
	each_overlapping(f, t, buf, len, 0);
	for (size_t k = 0; k < ln->n; k++) {
		size_t ls = ln->start[k], le = ln->start[k + 1];
		each(f, t, buf, 0, le, ls); /* --count-matches: the line inside the buffer */
		each_overlapping(f, t, buf, le, ls); /* --count-per-pattern --overlapping */
		char *copy = malloc(le - ls); /* -o and colour: the line alone */
		if (!copy)
			abort();
		memcpy(copy, buf + ls, le - ls);
		each(f, t, copy, ls, le - ls, 0);
		free(copy);
	}
}

/* ---- reporting ---- */

static void show_bytes(const char *what, const char *p, size_t len)
{
	fprintf(stderr, "%s (%zu bytes): \"", what, len);
	for (size_t i = 0; i < len && i < 400; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
	fprintf(stderr, "%s\"\n", len > 400 ? "..." : "");
}

static void show_case(const struct fuzz_case *fc)
{
	const struct match_options *mo = &fc->mo;
	fprintf(stderr, "options: i=%d w=%d x=%d eol=%s nul_ends_lines=%d kwset=%d regex_rules=%d utf8=%d\n",
		mo->ignore_case, mo->word, mo->line, mo->eol ? "\\n" : "\\0", mo->nul_ends_lines,
		mo->word_ignores_before_from, mo->word_regex_rules, mo->utf8);
	fprintf(stderr, "%zu patterns\n", fc->n_pats);
	for (size_t i = 0; i < fc->n_pats && i < 40; i++)
		show_bytes("  pattern", fc->pats[i].bytes, fc->pats[i].len);
	show_bytes("text", fc->text, fc->text_len);
}

static const char *const kind_names[] = { "find", "line", "walk", "each", "done", "unknown" };

/* Query q's records: [*from, return). */
static size_t query_end(const struct transcript *t, size_t from, uint32_t q)
{
	while (from < t->n && t->r[from].query == q)
		from++;
	return from;
}

static bool query_unknown(const struct transcript *t, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (t->r[i].kind == REC_UNKNOWN)
			return true;
	return false;
}

/* Aborts, showing the case, when a and b differ on a query both know. */
static void compare(const struct fuzz_case *fc, const struct transcript *a, const char *a_name,
		    const struct transcript *b, const char *b_name)
{
	size_t i = 0, j = 0;
	for (uint32_t q = 0; q < a->query; q++) {
		size_t ie = query_end(a, i, q), je = query_end(b, j, q);
		if (!query_unknown(a, i, ie) && !query_unknown(b, j, je)) {
			for (size_t k = 0; i + k < ie || j + k < je; k++) {
				const struct rec *x = i + k < ie ? &a->r[i + k] : NULL;
				const struct rec *y = j + k < je ? &b->r[j + k] : NULL;
				if (x && y && x->kind == y->kind && x->found == y->found && x->x == y->x &&
				    x->y == y->y)
					continue;
				show_case(fc);
				fprintf(stderr, "query %u, record %zu differs:\n", q, k);
				for (int side = 0; side < 2; side++) {
					const struct rec *r = side ? y : x;
					fprintf(stderr, "  %-14s ", side ? b_name : a_name);
					if (r)
						fprintf(stderr, "%s found=%d %zu %zu\n", kind_names[r->kind],
							r->found, r->x, r->y);
					else
						fprintf(stderr, "(no record)\n");
				}
				abort();
			}
		}
		i = ie;
		j = je;
	}
}

/* ---- the target ---- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* -w and -i in UTF-8 decode with mbrtowc, and -i folds with towupper */
	setlocale(LC_ALL, "C.UTF-8");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_case fc;
	if (size > FUZZ_MAX_INPUT || !decode(&fc, data, size))
		return 0;
	struct lines ln;
	split_lines(&fc, &ln);
	size_t *pos = malloc((fc.text_len + 2 * FUZZ_SAMPLES + 2) * sizeof *pos);
	if (!pos)
		abort();
	size_t n_pos = pick_positions(&fc, &ln, pos);

	struct naive nv;
	struct naive_options no = {
		.fold = fc.mo.ignore_case,
		.word = fc.mo.word,
		.line = fc.mo.line,
		.utf8 = fc.mo.utf8,
		.eol = fc.mo.eol,
		.nul_ends_lines = fc.mo.nul_ends_lines,
		.word_ignores_before_from = fc.mo.word_ignores_before_from,
		.word_regex_rules = fc.mo.word_regex_rules,
	};
	if (!naive_init(&nv, fc.pats, fc.n_pats, (const uint8_t *)fc.text, fc.text_len, &no))
		abort();
	struct transcript oracle = { 0 }, first = { 0 }, other = { 0 };
	run_queries(&(struct finder){ .nv = &nv }, &fc, &ln, pos, n_pos, &oracle);

	for (size_t k = 0; k < N_STRATEGIES; k++) {
		struct match_options mo = fc.mo;
		if (strategies[k].threads && mo.threads < 2)
			continue;
		mo.scan_path = (int)strategies[k].path;
		mo.simd = (int)strategies[k].simd;
		mo.threads = strategies[k].threads ? 2 : 1;
		struct pattern_set ps = pattern_list(fc.pats, fc.n_pats);
		const char *error = NULL;
		struct matcher *m = matcher_ac_new(&ps, &mo, &error);
		if (!m) {
			show_case(&fc);
			fprintf(stderr, "%s: matcher_ac_new failed: %s\n", strategies[k].name,
				error ? error : "?");
			abort();
		}
		struct transcript *t = k ? &other : &first;
		t->n = 0;
		t->query = 0;
		run_queries(&(struct finder){ .m = m }, &fc, &ln, pos, n_pos, t);
		matcher_free(m);
		if (k == 0)
			compare(&fc, &oracle, "naive", &first, strategies[0].name);
		else
			compare(&fc, &first, strategies[0].name, &other, strategies[k].name);
	}
	free(oracle.r);
	free(first.r);
	free(other.r);
	naive_free(&nv);
	free(pos);
	free(ln.start);
	free(fc.text);
	free(fc.pats);
	return 0;
}
