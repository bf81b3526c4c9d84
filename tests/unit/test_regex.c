/* SPDX-License-Identifier: MIT */
/* test_regex.c - regex.h: -E/-G patterns into literal sets.
 *
 * Table-driven: each pattern, syntax and locale kind, with the expansion
 * it must make (literals in order, "^" and "$" marking their anchors,
 * joined by spaces), or the error text it must give.  Then the sizes the
 * parser predicts, the bound, the tree's size (a run of literal
 * characters is one node), the list-wide fixed-string rule, and a
 * refusal's excerpt of its pattern.
 */
#include "regex/regex.h"
#include "regex/regex_internal.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

struct joined {
	char text[4096];
	size_t len, n;
};

static int join_cb(void *ctx, const char *bytes, size_t len, unsigned anchors)
{
	struct joined *j = ctx;
	int n = snprintf(j->text + j->len, sizeof j->text - j->len, "%s%s%.*s%s", j->n++ ? " " : "",
			 anchors & REGEX_BOL ? "^" : "", (int)len, bytes, anchors & REGEX_EOL ? "$" : "");
	j->len += (size_t)n;
	return 0;
}

/* The expansion of p as a string, or "ERR:" and the error text. */
static const char *expand_str(const char *p, enum regex_syntax syn, bool utf8, bool icase)
{
	static struct joined j;
	struct regex_options o = { .syntax = syn, .utf8 = utf8, .ignore_case = icase, .eol = '\n' };
	struct regex_error err;
	uint64_t count, bytes;
	memset(&j, 0, sizeof j);
	struct regex_tree *t = regex_parse(p, strlen(p), &o, &count, &bytes, &err);
	if (!t) {
		snprintf(j.text, sizeof j.text, "ERR:%s", err.text);
		return j.text;
	}
	CHECK(regex_expand(t, join_cb, &j) == 0, "%s: expand", p);
	regex_tree_free(t);
	return j.text;
}

struct row {
	const char *pattern;
	enum regex_syntax syntax;
	const char *want;
};

#define E REGEX_EXTENDED
#define G REGEX_BASIC

static const struct row rows[] = {
	{ "error|warn|fatal", E, "error warn fatal" },
	{ "foo\\|bar", G, "foo bar" },
	{ "foo|bar", G, "foo|bar" },
	{ "(get|post) /a", E, "get /a post /a" },
	{ "\\(a\\|b\\)c", G, "ac bc" },
	{ "a|", E, "a " },
	{ "ab?c", E, "ac abc" },
	{ "ab\\?c", G, "ac abc" },
	{ "ab?c", G, "ab?c" },
	{ "x{2}", E, "xx" },
	{ "x{,2}", E, " x xx" },
	{ "x{1,3}", E, "x xx xxx" },
	{ "x\\{2\\}", G, "xx" },
	{ "x{1", E, "x{1" },
	{ "x{a}", E, "x{a}" },
	{ "[ab]c", E, "ac bc" },
	{ "[]a]", E, "] a" },
	{ "[a-]", E, "- a" },
	{ "[[:digit:]]", E, "0 1 2 3 4 5 6 7 8 9" },
	{ "[[.a.][=b=]]", E, "a b" },
	{ "^ab|cd$", E, "^ab cd$" },
	{ "^$", E, "^$" },
	{ "a^b", E, "" },
	{ "a^b", G, "a^b" },
	{ "a$b", G, "a$b" },
	{ "(^a|b)c", E, "^ac bc" },
	{ "x(^a)", E, "" },
	{ "*a", G, "*a" },
	{ "\\(*a\\)", G, "*a" },
	{ "^*a", G, "^*a" },
	{ "a)", E, "a)" },
	{ "\\.\\*\\[", E, ".*[" },
	{ "()", E, "" },
	{ "a{0}", E, "" },
	/* grep's syntax errors */
	{ "(a", E, "ERR:Unmatched ( or \\(" },
	{ "\\(a", G, "ERR:Unmatched ( or \\(" },
	{ "a\\)", G, "ERR:Unmatched ) or \\)" },
	{ "[a", E, "ERR:Unmatched [, [^, [:, [., or [=" },
	{ "[[:alpha:", E, "ERR:Unmatched [, [^, [:, [., or [=" },
	{ "[z-a]", E, "ERR:Invalid range end" },
	{ "[[:alpha:]-z]", E, "ERR:Invalid range end" },
	{ "a\\", E, "ERR:Trailing backslash" },
	{ "a{2,1}", E, "ERR:Invalid content of \\{\\}" },
	{ "a{}", E, "ERR:Invalid content of \\{\\}" },
	{ "a{1,2,3}", E, "ERR:Invalid content of \\{\\}" },
	{ "a\\{1", G, "ERR:Unmatched \\{" },
	{ "a\\{x\\}", G, "ERR:Invalid content of \\{\\}" },
	{ "a{1,99999}", E, "ERR:Regular expression too big" },
	{ "[[:foo:]]", E, "ERR:Invalid character class name" },
	{ "[:alpha:]", E, "ERR:character class syntax is [[:space:]], not [:space:]" },
	{ "\\1", G, "ERR:Invalid back reference" },
};

static void table(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *got = expand_str(rows[i].pattern, rows[i].syntax, false, false);
		CHECK(strcmp(got, rows[i].want) == 0, "%s (%s): got '%s', want '%s'", rows[i].pattern,
		      rows[i].syntax == E ? "-E" : "-G", got, rows[i].want);
	}
}

/* Refusals name the construct and its byte. */
static void refusals(void)
{
	static const struct { const char *p; enum regex_syntax s; const char *has; } r[] = {
		{ "ab*", E, "byte 3: * (unbounded" }, { "ab+", E, "byte 3: + (unbounded" },
		{ "a\\+", G, "byte 2: + (unbounded" }, { "a{2,}", E, "byte 2: {n,} (unbounded" },
		{ "(a)\\1", E, "byte 4: a back-reference" }, { "\\<a", E, "byte 1: \\<" },
		{ "a\\b", E, "byte 2: \\b" }, { "\\w", E, "byte 1: \\w" },
		{ "*a", E, "byte 1: * at the start" },
		{ "[a-z]{6}", E, "byte 6: an expansion past the bound" },
		{ "\\d", E, "byte 1: \\d (an escape of an ordinary" },
	};
	for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
		const char *got = expand_str(r[i].p, r[i].s, false, false);
		CHECK(strncmp(got, "ERR:", 4) == 0 && strstr(got, r[i].has) && strstr(got, "grep"),
		      "%s: got '%s'", r[i].p, got);
	}
}

static void locales(void)
{
	const char *got = expand_str("[^a-y]", E, false, false);
	CHECK(strlen(got) > 2 * 200 && !strstr(got, " b ") && strstr(got, " z "), "[^a-y]: %s", got);
	got = expand_str("[^a-y]", E, false, true);
	CHECK(!strstr(got, " B "), "[^a-y] -i has no B");
	/* glibc's C.UTF-8 has no collation rules: no range past ASCII */
	CHECK(strstr(expand_str("[α-γ]", E, true, false), "Invalid collation character") != NULL,
	      "α-γ in C.UTF-8: %s", expand_str("[α-γ]", E, true, false));
	CHECK(strcmp(expand_str("[a-c]", E, true, false), "a b c") == 0, "a-c by code point");
	CHECK(strncmp(expand_str(".", E, true, false), "ERR:", 4) == 0, ". in UTF-8 refused");
	CHECK(strncmp(expand_str("[^a]", E, true, false), "ERR:", 4) == 0, "[^a] in UTF-8 refused");
	struct regex_options o = { .syntax = E, .eol = '\n' };
	struct regex_error err;
	uint64_t count, bytes;
	struct regex_tree *t = regex_parse(".", 1, &o, &count, &bytes, &err);
	CHECK(t && count == 255 && bytes == 255, ". in C: every byte but the newline");
	regex_tree_free(t);
}

static void sizes_and_lists(void)
{
	struct regex_options o = { .syntax = E, .eol = '\n' };
	struct regex_error err;
	uint64_t count, bytes;
	struct regex_tree *t = regex_parse("[a-j]{5}(x|yz)", 14, &o, &count, &bytes, &err);
	CHECK(t && count == 200000 && bytes == 100000 * 6 + 100000 * 7, "sizes %llu %llu",
	      (unsigned long long)count, (unsigned long long)bytes);
	regex_tree_free(t);
	CHECK(regex_list_is_fixed("a\\.b)", 5, E), "a\\.b) is fixed under -E");
	CHECK(!regex_list_is_fixed("a|b", 3, E) && regex_list_is_fixed("a|b", 3, G), "| per syntax");
	CHECK(!regex_list_is_fixed("a\\|b", 4, G), "\\| in BRE");
	CHECK(!regex_list_is_fixed("a\\wb", 4, E), "\\w");
	/* a list: each pattern parsed, the index of the one refused */
	struct pattern_set ps = { .storage = (char[]){ "x\0a|\0(" }, .end = (uint32_t[]){ 1, 4, 6 },
				  .count = 2 };
	size_t bad = 0;
	CHECK(regex_list_check(&ps, &o, &bad, &err) == 0, "x and a|");
	ps.count = 3;
	CHECK(regex_list_check(&ps, &o, &bad, &err) == -1 && bad == 2 && err.syntax, "( refused");
}

/* The nodes the parser makes for p. */
static size_t nodes_of(const char *p, size_t len)
{
	struct regex_options o = { .syntax = E, .eol = '\n' };
	struct regex_error err;
	uint64_t count, bytes;
	struct regex_tree *t = regex_parse(p, len, &o, &count, &bytes, &err);
	size_t n = t ? t->n : 0;
	regex_tree_free(t);
	return n;
}

/* One node per run of literal characters, whatever ends the run. */
static void runs(void)
{
	static char word[10001];
	memset(word, 'w', sizeof word - 1);
	CHECK(nodes_of(word, sizeof word - 1) == 1, "10,000 letters: %zu nodes",
	      nodes_of(word, sizeof word - 1));
	CHECK(nodes_of("hello|world", 11) == 3, "hello|world: %zu", nodes_of("hello|world", 11));
	/* the first branch, the words after it, the alternation */
	CHECK(nodes_of("a|bc|d|ef|g", 11) == 3, "a|bc|d|ef|g: %zu", nodes_of("a|bc|d|ef|g", 11));
	const char *words = expand_str("a\\|b|c\\|d\\(e\\)\\|f\\|gh\\|i", G, false, false);
	CHECK(strcmp(words, "a b|c de f gh i") == 0, "BRE words: %s", words);
	words = expand_str("a|bc|d(e|f)|g|h|i?|j", E, false, false);
	CHECK(strcmp(words, "a bc de df g h  i j") == 0, "ERE words: %s", words);
	/* a, b, b?, a b?, cd (the run "c" lengthened), the whole */
	CHECK(nodes_of("ab?cd", 5) == 6, "ab?cd: %zu", nodes_of("ab?cd", 5));
	CHECK(nodes_of("x(ab)(c)y", 9) == 1, "x(ab)(c)y: %zu", nodes_of("x(ab)(c)y", 9));
	const char *got = expand_str("ab?cd|x(ab)(c)y|^a\\.b$|a{2}b{1}c|\\(é\\)", E, true, false);
	CHECK(strcmp(got, "acd abcd xabcy ^a.b$ aabc (é)") == 0, "expanded: %s", got);
}

/* The list's literals as a string, after a check of `checked` (NULL:
 * none). */
static const char *list_str(const char *checked, const char *list, size_t len)
{
	static struct joined j;
	struct regex_options o = { .syntax = E, .eol = '\n' };
	struct regex_error err;
	size_t bad;
	if (checked) {
		char copy[64];
		snprintf(copy, sizeof copy, "%s", checked);
		struct pattern_set c = { .storage = copy, .end = (uint32_t[]){ 0 }, .count = 1 };
		c.end[0] = (uint32_t)strlen(copy);
		CHECK(regex_list_check(&c, &o, &bad, &err) == 0, "check %s", checked);
	}
	struct pattern_set ps = { .storage = malloc(len + 1), .end = malloc(sizeof *ps.end),
				  .count = 1 };
	memcpy(ps.storage, list, len + 1);
	ps.end[0] = (uint32_t)len;
	bool fixed;
	memset(&j, 0, sizeof j);
	CHECK(regex_list_expand(&ps, &o, &fixed) == 0 && !fixed, "expand %s", list);
	for (size_t i = 0; i < ps.count; i++) {
		struct pattern p = pattern_at(&ps, i);
		join_cb(&j, p.bytes, p.len, ps.anchors ? ps.anchors[i] : 0);
	}
	free(ps.storage);
	free(ps.end);
	free(ps.given);
	free(ps.anchors);
	return j.text;
}

/* The check's trees are expanded for the same list only. */
static void parsed_once(void)
{
	const char *got = list_str("a(b|c)$", "a(b|c)$", 7);
	CHECK(strcmp(got, "ab$ ac$") == 0, "checked list: %s", got);
	got = list_str("a(b|c)$", "a(b|d)$", 7);
	CHECK(strcmp(got, "ab$ ad$") == 0, "another list: %s", got);
	got = list_str(NULL, "x|^y", 4);
	CHECK(strcmp(got, "x ^y") == 0, "unchecked list: %s", got);
	/* words where the pattern has them, a group's copied after the text */
	got = list_str("one|two|x(th)ree|$", "one|two|x(th)ree|$", 18);
	CHECK(strcmp(got, "one two xthree $") == 0, "words: %s", got);
}

/* A refusal shows at most REGEX_EXCERPT_BYTES of its pattern, around the
 * byte it names, whole UTF-8 characters. */
static void excerpts(void)
{
	static char p[100001];
	memset(p, 'a', sizeof p - 1);
	p[50000] = '*';
	memcpy(p + 49979, "\xc3\xa9", 2); /* é across the excerpt's start */
	struct pattern_set ps = { .storage = p, .end = (uint32_t[]){ sizeof p - 1 }, .count = 1 };
	struct regex_options o = { .syntax = E, .utf8 = true, .eol = '\n' };
	struct regex_error err;
	size_t bad;
	CHECK(regex_list_check(&ps, &o, &bad, &err) == -1 && !err.syntax, "refused");
	char want[512];
	snprintf(want, sizeof want, "-E pattern '...%.19s*%.39s...': byte 50001: * (unbounded "
		 "repetition) is not supported: acgrep searches only patterns that match a finite "
		 "set of strings; grep -E can search this one", p + 49981, p + 50001);
	CHECK(strcmp(err.text, want) == 0, "got '%s'", err.text);
	o.utf8 = false;
	ps.end[0] = 30;
	p[29] = '+';
	CHECK(regex_list_check(&ps, &o, &bad, &err) == -1 && strncmp(err.text, "-E pattern 'aaa", 15)
	      == 0 && strstr(err.text, "+': byte 30: +"), "short: '%s'", err.text);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	table();
	refusals();
	locales();
	sizes_and_lists();
	runs();
	parsed_once();
	excerpts();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
