/* SPDX-License-Identifier: MIT */
/* test_compiled.c - compiled pattern sets at the matcher's level
 * (src/grep/compiled/matcher_file*.c): a set saved with matcher_save and mapped
 * back with matcher_load answers exactly as the matcher compiled from the
 * list does, and refuses what it must.
 *
 * Cases: plain lists, duplicates, the empty pattern, -i in C and in
 * C.UTF-8 (with characters grep's DFA pairs otherwise, and patterns that
 * are not valid UTF-8: the fold's lists), -w, -x, -w -x, patterns holding
 * NUL dropped and kept (-a, -z), on every scan path.  For each: matches
 * from every offset (exact and not), matcher_each, matcher_identify of
 * every pattern, the flags a search reads (longest_span, spans_eol,
 * match_takes_eol) and pattern_keys over the list view; the same after
 * the set's file was rewritten in place and truncated.  Then each
 * option the set was compiled with, changed, is refused with its message;
 * the matcher's sections changed (and the checksum resealed) are refused
 * as corrupt.  A set saved with tags loads them as they were (beside
 * dropped NUL patterns, under -i too), one saved without loads none, and
 * a changed tags section is refused.  -E and -G sets (anchors, a list
 * grep searches as -F, -w, -x, dropped NUL literals, -i's fold over
 * literals) answer alike too and report their syntax; their own sections
 * changed are refused as corrupt.  Prints "N passed, N failed"; exits
 * non-zero on failure.
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ac.h"
#include "check.h"
#include "match/matcher.h"
#include "compiled/matcher_file.h"
#include "match/pattern_keys.h"
#include "narrow.h"
#include "pattern_list.h"
#include "secfile.h"

#define P(s) { .bytes = s, .len = sizeof(s) - 1 }

struct ccase {
	const char *name;
	bool utf8;         /* C.UTF-8, else C */
	const char *flags; /* i w x z, a (-a), E (-E), G (-G) */
	struct pattern pats[6];
	size_t n_pats;
	const char *text;
	size_t len;        /* of text; 0: strlen */
};

static const struct ccase cases[] = {
	{ .name = "plain", .pats = { P("he"), P("she"), P("his"), P("hers") }, .n_pats = 4,
	  .text = "ushers\nhis hat\nnone\nshe, he, his\n" },
	{ .name = "duplicates and the empty pattern", .pats = { P("ab"), P(""), P("ab"), P("b") },
	  .n_pats = 4, .text = "xab\n\nbbb ab\n" },
	{ .name = "-i ASCII", .flags = "i", .pats = { P("Foo"), P("BAR"), P("foo") }, .n_pats = 3,
	  .text = "FOO bar\nfOo\nnone\n" },
	{ .name = "-i UTF-8 folding", .utf8 = true, .flags = "i",
	  .pats = { P("\xc3\xa9t\xc3\xa9"), P("stra\xc3\x9f" "e"), P("k") }, .n_pats = 3,
	  .text = "\xc3\x89T\xc3\x89\nSTRASSE stra\xc3\x9f" "e\n\xe2\x84\xaa" "elvin\nnone\n" },
	{ .name = "-i UTF-8, DFA-narrow and invalid patterns", .utf8 = true, .flags = "i",
	  .pats = { P("\xe1\xb2\x80x"), P("a\xffz"), P("\xd0\x92x") }, .n_pats = 3,
	  .text = "\xe1\xb2\x80X\n\xd0\xb2x\na\xffZ\nnone\n" },
	{ .name = "-w", .flags = "w", .pats = { P("ab"), P("abc"), P("c") }, .n_pats = 3,
	  .text = "abcd ab c\nxab_ abc\n" },
	{ .name = "-w, one pattern", .flags = "w", .pats = { P("a") }, .n_pats = 1,
	  .text = "a ba a_ a\n" },
	{ .name = "-x", .flags = "x", .pats = { P("a"), P("ab") }, .n_pats = 2, .text = "ab\na\nabc\n" },
	{ .name = "-w -x", .flags = "wx", .pats = { P("a b"), P("a") }, .n_pats = 2,
	  .text = "a b\na\n b\n" },
	{ .name = "NUL patterns dropped", .pats = { P("a\0b"), P("cd"), P("a\0b") }, .n_pats = 3,
	  .text = "cd\na\0b\n", .len = 7 },
	{ .name = "NUL patterns kept (-a)", .flags = "a", .pats = { P("a\0b"), P("cd") },
	  .n_pats = 2, .text = "a\0b cd\n", .len = 7 },
	{ .name = "-z, a pattern holding the line end", .flags = "z",
	  .pats = { P("a\0b"), P("cd") }, .n_pats = 2, .text = "xa\0bx\0cd\0", .len = 9 },
	{ .name = "-w -i UTF-8, a tail a retry cuts", .utf8 = true, .flags = "wi",
	  .pats = { P("\xcf\x83"), P("\xcf") }, .n_pats = 2, .text = "\xcf\x82" "b\nx \xcf\x82" "b\n" },
	{ .name = "-E, anchors", .flags = "E", .pats = { P("^foo|ba[rz]$"), P("x(y|z)"), P("bar") },
	  .n_pats = 3, .text = "foo\nbar\nxfoo\nbaz\nfoobar xz\nbarx\n" },
	{ .name = "-G, a list grep searches as -F", .flags = "G", .pats = { P("a\\.b"), P("c") },
	  .n_pats = 2, .text = "a.b\naxb\nc\n" },
	{ .name = "-E -w", .flags = "Ew", .pats = { P("ab(c)?"), P("^c") }, .n_pats = 2,
	  .text = "abcd ab c\nxab_ abc\nc\n" },
	{ .name = "-E -x", .flags = "Ex", .pats = { P("a|ab") }, .n_pats = 1, .text = "ab\na\nabc\n" },
	{ .name = "-E, NUL literals dropped", .flags = "E", .pats = { P("a\0b|cd"), P("^e") },
	  .n_pats = 2, .text = "cd\na\0b\ne\n", .len = 9 },
	{ .name = "-E -i UTF-8, DFA-narrow and invalid literals", .utf8 = true, .flags = "Ei",
	  .pats = { P("\xe1\xb2\x80(x|y)|\xd0\x92y"), P("a\xff(z|q)$"), P("\xc3\xa9(t|x)") },
	  .n_pats = 3, .text = "\xe1\xb2\x80X\n\xd0\xb2y\na\xffZ\n\xc3\x89T\nnone\n" },
};

static struct config case_config(const struct ccase *c, int scan_path)
{
	const char *f = c->flags ? c->flags : "";
	return (struct config){
		.patterns = pattern_list(c->pats, c->n_pats),
		.ignore_case = strchr(f, 'i') != NULL,
		.word_regexp = strchr(f, 'w') != NULL,
		.line_regexp = strchr(f, 'x') != NULL,
		.null_data = strchr(f, 'z') != NULL,
		.syntax = strchr(f, 'E') ? SYNTAX_EXTENDED : strchr(f, 'G') ? SYNTAX_BASIC : SYNTAX_FIXED,
		.binary = strchr(f, 'a') ? BINARY_TEXT : BINARY_BINARY,
		.engine = ENGINE_AC,
		.utf8_locale = c->utf8,
		.scan_path = scan_path,
	};
}

static char dir[] = "/tmp/acgrep-test-compiled.XXXXXX";
static char path[sizeof dir + 16];

/* matcher_save of cfg's list and tags, for cfg's options, to `path`. */
static int save(const struct config *cfg, char *why, size_t why_len)
{
	const struct matcher_spec spec = matcher_spec_of(cfg);
	return matcher_save(&spec, &cfg->patterns, &cfg->tags, 1, path, why, why_len);
}

/* matcher_load of `path` for cfg's options. */
static struct matcher *load(const struct config *cfg, struct pattern_set *list,
			    struct pattern_tags *tags, char *why, size_t why_len)
{
	const struct matcher_spec spec = matcher_spec_of(cfg);
	return matcher_load(&spec, path, list, tags, why, why_len);
}

/* matcher_load_image of p[0..size) for cfg's options. */
static struct matcher *load_image(const struct config *cfg, const void *p, size_t size,
				  struct pattern_set *list, struct pattern_tags *tags, char *why,
				  size_t why_len)
{
	const struct matcher_spec spec = matcher_spec_of(cfg);
	return matcher_load_image(&spec, p, size, list, tags, why, why_len);
}

struct hits {
	struct matcher_hit h[64];
	size_t n;
};

static int hit_cb(const struct matcher_hit *hit, void *ctx)
{
	struct hits *h = ctx;
	if (h->n < 64)
		h->h[h->n] = *hit;
	h->n++;
	return 0;
}

static bool same_hit(const struct matcher_hit *x, const struct matcher_hit *y)
{
	return x->start == y->start && x->end == y->end && x->pattern == y->pattern;
}

/* a (compiled here) and b (loaded) answer alike over the case's text. */
static void same_answers(const struct ccase *c, const struct matcher *a, const struct matcher *b,
			 int scan)
{
	size_t len = c->len ? c->len : strlen(c->text);
	CHECK(a->longest_span == b->longest_span && a->spans_eol == b->spans_eol &&
		      a->match_takes_eol == b->match_takes_eol,
	      "%s (scan path %d): the matcher's flags", c->name, scan);
	for (size_t from = 0; from <= len; from++)
		for (int exact = 0; exact < 2; exact++) {
			struct matcher_hit ha = { 0 }, hb = { 0 };
			bool fa = matcher_find_hit(a, c->text, len, from, exact, &ha);
			bool fb = matcher_find_hit(b, c->text, len, from, exact, &hb);
			CHECK(fa == fb && (!fa || same_hit(&ha, &hb)), "%s (scan path %d): find from %zu",
			      c->name, scan, from);
		}
	struct hits ea = { .n = 0 }, eb = { .n = 0 };
	matcher_each(a, c->text, len, 0, hit_cb, &ea);
	matcher_each(b, c->text, len, 0, hit_cb, &eb);
	bool same = ea.n == eb.n;
	for (size_t i = 0; same && i < ea.n && i < 64; i++)
		same = same_hit(&ea.h[i], &eb.h[i]);
	CHECK(same, "%s (scan path %d): matcher_each", c->name, scan);
	for (size_t i = 0; i < c->n_pats; i++) {
		uint32_t ia = 0, ib = 0;
		bool fa = matcher_identify(a, c->pats[i].bytes, c->pats[i].len, &ia);
		bool fb = matcher_identify(b, c->pats[i].bytes, c->pats[i].len, &ib);
		CHECK(fa == fb && ia == ib, "%s (scan path %d): identify %zu", c->name, scan, i);
	}
}

/* The keys of the list view equal the keys of the list. */
static void same_keys(const struct ccase *c, const struct config *cfg, const struct matcher *a,
		      const struct pattern_set *list, const struct matcher *b)
{
	struct pattern_keys ka, kb;
	CHECK(pattern_keys_init(&ka, &cfg->patterns, &cfg->tags, cfg->syntax) == 0 &&
		      pattern_keys_init(&kb, list, &cfg->tags, cfg->syntax) == 0,
	      "keys");
	pattern_keys_link(&ka, a);
	pattern_keys_link(&kb, b);
	CHECK(kb.text.count == c->n_pats, "%s: the list has every pattern", c->name);
	for (size_t i = 0; i < c->n_pats && i < kb.text.count; i++) {
		struct pattern p = pattern_at(&kb.text, i);
		CHECK(p.len == c->pats[i].len && !memcmp(p.bytes, c->pats[i].bytes, p.len) &&
			      ka.first[i] == kb.first[i],
		      "%s: pattern %zu and its key", c->name, i);
	}
	pattern_keys_free(&ka);
	pattern_keys_free(&kb);
}

static void run_case(const struct ccase *c)
{
	for (int scan = AC_PATH_AUTO; scan <= AC_PATH_HASH; scan++) {
		struct config cfg = case_config(c, scan);
		char why[256] = "";
		CHECK(save(&cfg, why, sizeof why) == 0, "%s: save: %s", c->name, why);
		struct pattern_set list;
		struct pattern_tags tags;
		struct matcher *b = load(&cfg, &list, &tags, why, sizeof why);
		CHECK(b != NULL, "%s (path %d): load: %s", c->name, scan, why);
		CHECK(!b || !tags.of, "%s (path %d): saved without tags, loaded without", c->name, scan);
		CHECK(!b || matcher_file_syntax(b) == cfg.syntax, "%s (path %d): the syntax", c->name,
		      scan);
		struct pattern_set copy = pattern_list(c->pats, c->n_pats);
		const char *error = NULL;
		struct matcher *a = matcher_for_config(&cfg, &copy, 1, &error);
		if (a && b) {
			same_answers(c, a, b, scan);
			same_keys(c, &cfg, a, &list, b);
		}
		matcher_free(a);
		matcher_free(b);
		pattern_list_free(&cfg.patterns);
	}
}

/* The set's file rewritten in place with 0xFF (same size), then truncated,
 * after matcher_load: the loaded matcher answers as before (it scans the
 * bytes it checked, not the file's). */
static void file_changed(void)
{
	const struct ccase *c = &cases[0];
	struct config cfg = case_config(c, AC_PATH_DFA);
	char why[256] = "";
	CHECK(save(&cfg, why, sizeof why) == 0, "save: %s", why);
	struct pattern_set list;
	struct pattern_tags tags;
	struct matcher *b = load(&cfg, &list, &tags, why, sizeof why);
	struct pattern_set copy = pattern_list(c->pats, c->n_pats);
	const char *error = NULL;
	struct matcher *a = matcher_for_config(&cfg, &copy, 1, &error);
	struct stat st;
	FILE *f = fopen(path, "r+");
	CHECK(b && a && f && stat(path, &st) == 0, "load: %s", why);
	if (b && a && f) {
		for (off_t i = 0; i < st.st_size; i++)
			putc(0xff, f);
		CHECK(fclose(f) == 0, "rewrite the set");
		same_answers(c, a, b, AC_PATH_DFA);
		same_keys(c, &cfg, a, &list, b);
		CHECK(truncate(path, 0) == 0, "truncate the set");
		same_answers(c, a, b, AC_PATH_DFA);
		same_keys(c, &cfg, a, &list, b);
	} else if (f) {
		fclose(f);
	}
	matcher_free(a);
	matcher_free(b);
	pattern_list_free(&cfg.patterns);
}

/* Each option changed after compiling is refused with its message. */
static void mismatches(void)
{
	static const struct ccase nul = { .name = "nul", .pats = { P("a\0b"), P("x") }, .n_pats = 2 };
	struct config cfg = case_config(&nul, 0);
	char why[256];
	struct pattern_set list;
	struct pattern_tags tags;
	CHECK(save(&cfg, why, sizeof why) == 0, "save: %s", why);
	static const struct {
		const char *flag, *why;
	} want[] = {
		{ "i", "compiled without -i; this search is with it" },
		{ "w", "compiled without -w; this search is with it" },
		{ "x", "compiled without -x; this search is with it" },
		{ "z", "compiled without -z; this search is with it" },
		{ "u", "compiled in a non-UTF-8 locale; this search's locale is UTF-8" },
		{ "a", "compiled without --binary-files=text; this search is with it" },
		{ "p", "compiled for --engine=ac; this search asks for --engine=pcre2" },
		{ "s", "compiled with --scan-path=auto; this search asks for --scan-path=dfa" },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		struct config c = cfg;
		char f = want[i].flag[0];
		c.ignore_case = f == 'i', c.word_regexp = f == 'w', c.line_regexp = f == 'x';
		c.null_data = f == 'z', c.utf8_locale = f == 'u';
		c.binary = f == 'a' ? BINARY_TEXT : BINARY_BINARY;
		c.engine = f == 'p' ? ENGINE_PCRE2 : ENGINE_AC;
		c.scan_path = f == 's' ? AC_PATH_DFA : 0;
		struct matcher *m = load(&c, &list, &tags, why, sizeof why);
		CHECK(!m && !strcmp(why, want[i].why), "-%c: %s", f, m ? "loaded" : why);
		matcher_free(m);
	}
	/* without a NUL pattern, -a is no part of the set */
	static const struct ccase plain = { .name = "plain", .pats = { P("ab") }, .n_pats = 1 };
	struct config p = case_config(&plain, 0);
	CHECK(save(&p, why, sizeof why) == 0, "save: %s", why);
	p.binary = BINARY_TEXT;
	struct matcher *m = load(&p, &list, &tags, why, sizeof why);
	CHECK(m != NULL, "-a without NUL patterns: %s", m ? "" : why);
	matcher_free(m);
	pattern_list_free(&p.patterns);
	pattern_list_free(&cfg.patterns);
}

/* The file at `path`, in aligned memory. */
static uint8_t *file_image(size_t *size)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f || fstat(fileno(f), &st) != 0)
		abort();
	uint8_t *img = aligned_alloc(64, ((size_t)st.st_size + 64) & ~(size_t)63);
	if (!img || fread(img, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
		abort();
	fclose(f);
	*size = (size_t)st.st_size;
	return img;
}

/* A change to a saved set: the u32 `value` at byte `at` of section `tag`,
 * and the message that refuses it. */
struct edit {
	uint32_t tag;
	size_t at;
	uint32_t value;
	const char *why;
};

/* cfg's set, saved, then changed by each edit (and resealed), is refused
 * with the edit's message. */
static void refused_edits(const struct config *cfg, const struct edit *edits, size_t n_edits)
{
	char why[256];
	CHECK(save(cfg, why, sizeof why) == 0, "save: %s", why);
	size_t size;
	uint8_t *img = file_image(&size), *copy = aligned_alloc(64, (size + 64) & ~(size_t)63);
	for (size_t i = 0; i < n_edits; i++) {
		memcpy(copy, img, size);
		struct secfile f;
		size_t n;
		CHECK(secfile_open(&f, copy, size, why, sizeof why) == 0, "open");
		uint8_t *s = (uint8_t *)(uintptr_t)secfile_find(&f, edits[i].tag, &n);
		CHECK(s && n >= edits[i].at + 4, "edit %zu: the section", i);
		if (!s)
			continue;
		memcpy(s + edits[i].at, &edits[i].value, 4);
		secfile_reseal(copy, size);
		struct pattern_set list;
		struct pattern_tags tags;
		struct matcher *m = load_image(cfg, copy, size, &list, &tags, why, sizeof why);
		CHECK(!m && !strcmp(why, edits[i].why), "edit %zu: %s", i, m ? "loaded" : why);
		matcher_free(m);
	}
	free(copy);
	free(img);
}

/* The matcher's own sections changed (and resealed) are corrupt. */
static void corrupt_sections(void)
{
	static const struct ccase c = { .name = "given", .pats = { P("a\0b"), P("xy"), P("zz") },
					.n_pats = 3 };
	struct config cfg = case_config(&c, 0);
	static const struct edit edits[] = {
		{ SECFILE_TAG('G', 'R', 'm', 't'), 0, 2, "corrupt compiled pattern set (options)" },
		{ SECFILE_TAG('G', 'R', 'l', 'e'), 4, 99, "corrupt compiled pattern set (pattern list)" },
		{ SECFILE_TAG('G', 'R', 'l', 'e'), 8, 2, "corrupt compiled pattern set (pattern list)" },
		{ SECFILE_TAG('G', 'R', 'g', 'v'), 0, 2, "corrupt compiled pattern set (pattern ids)" },
		{ SECFILE_TAG('G', 'R', 'g', 'v'), 4, 7, "corrupt compiled pattern set (pattern ids)" },
		{ SECFILE_TAG('A', 'C', 'f', 'l'), 4, 5,
		  "corrupt compiled pattern set (automaton: links or outputs)" },
	};
	refused_edits(&cfg, edits, sizeof edits / sizeof *edits);
	pattern_list_free(&cfg.patterns);
}

/* An -E set's own sections changed (and resealed) are corrupt: its
 * syntax, its literals' pattern ids, its anchor table, its fold's lists
 * and literals. */
static void corrupt_regex_sections(void)
{
	static const struct ccase c = { .name = "-E", .flags = "E",
					.pats = { P("^a|b"), P("x(y|z)$") }, .n_pats = 2 };
	struct config cfg = case_config(&c, 0);
	static const char ids[] = "corrupt compiled pattern set (pattern ids)",
			  lits[] = "corrupt compiled pattern set (-E/-G literals)",
			  anchors[] = "corrupt compiled pattern set (anchors)";
	/* byte 68 of GRmt is struct file_meta's `syntax`; GRgv: 0 0 1 1 */
	static const struct edit edits[] = {
		{ SECFILE_TAG('G', 'R', 'm', 't'), 68, 3, "corrupt compiled pattern set (options)" },
		{ SECFILE_TAG('G', 'R', 'g', 'v'), 0, 1, ids },  /* the ids fall */
		{ SECFILE_TAG('G', 'R', 'g', 'v'), 12, 2, ids }, /* no such pattern */
		{ SECFILE_TAG('G', 'R', 'r', 'x'), 0, 2, lits },
		{ SECFILE_TAG('G', 'R', 'r', 'x'), 0, 0, anchors }, /* unanchored, with GRaf */
		{ SECFILE_TAG('G', 'R', 'r', 'x'), 8, 1, lits }, /* literals without a fold */
		{ SECFILE_TAG('G', 'R', 'a', 'f'), 0, 4, anchors },
		{ SECFILE_TAG('G', 'R', 'a', 'f'), 20, 0xfffffffe, anchors },
	};
	refused_edits(&cfg, edits, sizeof edits / sizeof *edits);
	pattern_list_free(&cfg.patterns);
	static const struct ccase f = { .name = "-E -i", .flags = "Ei", .utf8 = true,
					.pats = { P("a\xff(z|q)") }, .n_pats = 1 };
	if (!setlocale(LC_ALL, "C.UTF-8"))
		return;
	cfg = case_config(&f, 0);
	/* GRbd: literal 1 (a\xffq); the literals: a\xffz\0a\xffq\0 */
	static const struct edit fold_edits[] = {
		{ SECFILE_TAG('G', 'R', 'b', 'd'), 0, 2, "corrupt compiled pattern set (folding lists)" },
		{ SECFILE_TAG('G', 'R', 'x', 'e'), 0, 9, lits },
		{ SECFILE_TAG('G', 'R', 'x', 't'), 0, 0x41414141, lits },
	};
	refused_edits(&cfg, fold_edits, sizeof fold_edits / sizeof *fold_edits);
	pattern_list_free(&cfg.patterns);
	setlocale(LC_ALL, "C");
}

/* The tagged list: a NUL pattern (dropped but with -a, so that list ids
 * and the engine's differ), a tag used twice, an empty tag and one
 * holding a NUL. */
static const struct ccase tagged_case = {
	.name = "tagged", .pats = { P("a\0b"), P("xy"), P("Zz"), P("xy"), P("q") }, .n_pats = 5,
};
static const struct pattern tag_names[] = { P("nul"), P("t"), P(""), P("q\0r") };
static uint32_t tag_of[] = { 0, 1, 2, 1, 3 };

static struct config tagged_config(const char *flags)
{
	struct ccase c = tagged_case;
	c.flags = flags;
	struct config cfg = case_config(&c, 0);
	cfg.tags = (struct pattern_tags){ .names = pattern_list(tag_names, 4), .of = tag_of };
	return cfg;
}

/* The loaded tags are cfg's, and name the patterns and matches alike. */
static void same_tags(const struct config *cfg, const struct pattern_set *list,
		      const struct pattern_tags *tags, const struct matcher *m)
{
	const struct pattern_set *names = &cfg->tags.names;
	const char *f = cfg->ignore_case ? "-i" : cfg->word_regexp ? "-w" : "";
	CHECK(tags->names.count == names->count && tags->names.holds_nul, "tags %s: the names", f);
	for (size_t i = 0; i < names->count && i < tags->names.count; i++) {
		struct pattern a = pattern_at(names, i), b = pattern_at(&tags->names, i);
		CHECK(a.len == b.len && !memcmp(a.bytes, b.bytes, a.len), "tags %s: name %zu", f, i);
	}
	struct pattern_keys k;
	CHECK(pattern_keys_init(&k, list, tags, cfg->syntax) == 0, "keys");
	pattern_keys_link(&k, m);
	CHECK(k.n_keys == names->count, "tags %s: a row per tag", f);
	for (uint32_t i = 0; i < list->count; i++) {
		struct pattern name, want = pattern_at(names, tag_of[i]);
		uint64_t number;
		pattern_keys_name(&k, i, SHOW_PATTERN_TAG, &name, &number);
		CHECK(tags->of[i] == tag_of[i] && name.len == want.len &&
			      !memcmp(name.bytes, want.bytes, want.len),
		      "tags %s: pattern %u's tag", f, i);
	}
	/* q is pattern 4 of the list, 3 of the engine's when a\0b is dropped */
	struct matcher_hit h;
	CHECK(matcher_find_hit(m, "xy q", 4, 0, true, &h) && pattern_keys_key(&k, h.pattern) == 1 &&
		      matcher_find_hit(m, "xy q", 4, 3, true, &h) && pattern_keys_key(&k, h.pattern) == 3,
	      "tags %s: a match's tag", f);
	pattern_keys_free(&k);
}

/* A set saved with tags loads them as they were; changed, it is refused. */
static void tags_kept(void)
{
	static const char *const flag_sets[] = { "", "i", "w", "a" };
	for (size_t s = 0; s < sizeof flag_sets / sizeof *flag_sets; s++) {
		struct config cfg = tagged_config(flag_sets[s]);
		char why[256] = "";
		CHECK(save(&cfg, why, sizeof why) == 0, "tags: save: %s", why);
		struct pattern_set list;
		struct pattern_tags tags;
		struct matcher *m = load(&cfg, &list, &tags, why, sizeof why);
		CHECK(m && tags.of, "tags -%s: load: %s", flag_sets[s], m ? "no tags" : why);
		if (m && tags.of)
			same_tags(&cfg, &list, &tags, m);
		matcher_free(m);
		pattern_list_free(&cfg.patterns);
		pattern_list_free(&cfg.tags.names);
	}
	/* byte 60 of GRmt is struct file_meta's `tagged`, 64 its `tags_nul` */
	static const char tags[] = "corrupt compiled pattern set (tags)";
	static const struct edit edits[] = {
		{ SECFILE_TAG('G', 'R', 't', 'o'), 4, 4, tags },  /* no such tag */
		{ SECFILE_TAG('G', 'R', 't', 'o'), 4, 2, tags },  /* not in order of first use */
		{ SECFILE_TAG('G', 'R', 't', 'o'), 16, 2, tags }, /* a tag no pattern has */
		{ SECFILE_TAG('G', 'R', 't', 'e'), 0, 99, tags },
		{ SECFILE_TAG('G', 'R', 't', 'e'), 8, 4, tags },
		{ SECFILE_TAG('G', 'R', 't', 't'), 0, 0x41414141, tags }, /* a NUL overwritten */
		{ SECFILE_TAG('G', 'R', 'm', 't'), 60, 0, tags }, /* untagged, with tags' sizes */
		{ SECFILE_TAG('G', 'R', 'm', 't'), 60, 2, "corrupt compiled pattern set (options)" },
		{ SECFILE_TAG('G', 'R', 'm', 't'), 64, 2, "corrupt compiled pattern set (options)" },
	};
	struct config cfg = tagged_config("");
	refused_edits(&cfg, edits, sizeof edits / sizeof *edits);
	pattern_list_free(&cfg.patterns);
	pattern_list_free(&cfg.tags.names);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 2;
	snprintf(path, sizeof path, "%s/set", dir);
	bool have_utf8 = setlocale(LC_ALL, "C.UTF-8") != NULL;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (cases[i].utf8 && !have_utf8)
			continue;
		setlocale(LC_ALL, cases[i].utf8 ? "C.UTF-8" : "C");
		run_case(&cases[i]);
	}
	setlocale(LC_ALL, "C");
	file_changed();
	mismatches();
	corrupt_sections();
	corrupt_regex_sections();
	tags_kept();
	unlink(path);
	rmdir(dir);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
