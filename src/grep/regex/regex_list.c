/* SPDX-License-Identifier: MIT */
/* regex_list.c - a list of -E/-G patterns as the literals the matcher
 * searches (see regex.h).
 *
 * Owns: the list-wide rules: every pattern parsed alike, the bound over
 * the whole list, grep's choice of its fixed-string matcher for two or
 * more distinct patterns without regex operators (the patterns'
 * backslashes dropped), the literal grep selects lines by when the list
 * matches nothing (regex_must.c, its matches unseen), and the
 * literal list with, per literal, the pattern it came from (given) and
 * its anchors; and that a list is parsed once: the trees the check made
 * are what the expansion expands.
 */
#include "regex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* The trees of the list regex_list_check last accepted (each holds a
 * copy of its pattern), with the list's options and the size of its
 * expansion: regex_list_expand of the same list (the program's, checked
 * before any input is read and expanded once the matcher is built, on
 * one thread) takes them rather than parsing again.  Not for a list grep
 * searches as -F (never expanded), and trees are kept only while they
 * hold at most KEEP_PER_BYTE times the list's bytes (plus KEEP_SLACK):
 * the rest are parsed again.  Words joined by | hold about 4 bytes of
 * tree per byte of list (per 9-byte word and its |: a 24-byte node, its
 * place in the alternation and the pattern's copy), inside the budget. */
#define KEEP_PER_BYTE 8
#define KEEP_SLACK ((size_t)256 << 10)
static struct checked_list {
	struct regex_tree **trees; /* NULL: none kept; trees[i] NULL: pattern i not kept */
	size_t count, len, held;
	uint64_t literals, bytes; /* the expansion's, at most (anchors drop some) */
	struct regex_options o;
} checked;

static void checked_free(void)
{
	for (size_t i = 0; checked.trees && i < checked.count; i++)
		regex_tree_free(checked.trees[i]);
	free(checked.trees);
	checked = (struct checked_list){ .trees = NULL };
}

static size_t list_bytes(const struct pattern_set *ps)
{
	return ps->count ? (size_t)ps->end[ps->count - 1] + 1 : 0;
}

/* Would grep search list ps as -F?  grep 3.8 tries its fixed-string
 * matcher only for two or more distinct patterns (its list without
 * duplicates), and only when no pattern has an operator
 * (regex_list_is_fixed of each): one pattern, however often given, is
 * searched by its regex matcher, whose -x -w and -w rules differ. */
static bool list_is_fixed(const struct pattern_set *ps, enum regex_syntax syntax)
{
	bool fixed = false;
	struct pattern first = ps->count ? pattern_at(ps, 0) : (struct pattern){ .len = 0 };
	for (size_t i = 1; i < ps->count && !fixed; i++) {
		struct pattern p = pattern_at(ps, i);
		fixed = p.len != first.len || memcmp(p.bytes, first.bytes, first.len) != 0;
	}
	for (size_t i = 0; i < ps->count && fixed; i++) {
		struct pattern p = pattern_at(ps, i);
		fixed = regex_list_is_fixed(p.bytes, p.len, syntax);
	}
	return fixed;
}

/* Starts keeping the trees of list ps (when memory allows). */
static void checked_start(const struct pattern_set *ps, const struct regex_options *o)
{
	checked.trees = calloc(ps->count ? ps->count : 1, sizeof *checked.trees);
	if (!checked.trees)
		return;
	checked.count = ps->count;
	checked.len = list_bytes(ps);
	checked.o = *o;
}

/* Are the kept trees those of list ps under options o?  (The others are
 * parsed again from ps.) */
static bool checked_is(const struct pattern_set *ps, const struct regex_options *o)
{
	bool same = checked.trees && checked.count == ps->count && checked.len == list_bytes(ps) &&
		    checked.o.syntax == o->syntax && checked.o.utf8 == o->utf8 &&
		    checked.o.ignore_case == o->ignore_case && checked.o.eol == o->eol &&
		    checked.o.line == o->line && checked.o.word == o->word;
	for (size_t i = 0; same && i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		same = !checked.trees[i] || regex_tree_is_of(checked.trees[i], p.bytes, p.len);
	}
	return same;
}

/* The literal list as it grows.  Its anchors are made with the first
 * literal that has any (NULL while none has). */
struct literals {
	struct pattern_set *out;
	size_t cap, ncap, gcap, acap, len;
	uint32_t pattern; /* the pattern whose literals come now */
};

/* Grows l's arrays to hold `bytes` bytes (with the NULs) and `count`
 * literals in all: from that size when empty (an expansion whose size is
 * known), else doubling.  0, or -1 when out of memory. */
static int literals_room(struct literals *l, size_t bytes, size_t count)
{
	struct pattern_set *ps = l->out;
	size_t first_bytes = bytes > 4096 ? bytes : 4096, first = count > 256 ? count : 256;
	char *nb = grow_array(ps->storage, &l->cap, bytes, 1, first_bytes);
	if (nb)
		ps->storage = nb;
	uint32_t *ne = nb ? grow_array(ps->end, &l->ncap, count, sizeof *ne, first) : NULL;
	if (ne)
		ps->end = ne;
	uint32_t *ng = ne ? grow_array(ps->given, &l->gcap, count, sizeof *ng, first) : NULL;
	if (ng)
		ps->given = ng;
	uint8_t *na = ng && ps->anchors ? grow_array(ps->anchors, &l->acap, count, 1, first) : NULL;
	if (na)
		ps->anchors = na;
	return ng && (na || !ps->anchors) ? 0 : -1;
}

static int add_literal(void *ctx, const char *bytes, size_t len, unsigned anchors)
{
	struct literals *l = ctx;
	struct pattern_set *ps = l->out;
	if (l->len + len + 1 > UINT32_MAX)
		return -1;
	bool full = l->len + len + 1 > l->cap || ps->count + 1 > l->ncap || ps->count + 1 > l->gcap ||
		    (ps->anchors && ps->count + 1 > l->acap);
	if (full && literals_room(l, l->len + len + 1, ps->count + 1) != 0)
		return -1;
	if (anchors && !ps->anchors) { /* the literals before it have none */
		ps->anchors = calloc(l->ncap, 1);
		if (!ps->anchors)
			return -1;
		l->acap = l->ncap;
	}
	memcpy(ps->storage + l->len, bytes, len);
	ps->storage[l->len + len] = '\0';
	ps->holds_nul = ps->holds_nul || memchr(bytes, '\0', len);
	l->len += len;
	ps->end[ps->count] = (uint32_t)l->len++;
	ps->given[ps->count] = l->pattern;
	if (ps->anchors)
		ps->anchors[ps->count] = (uint8_t)anchors;
	ps->count++;
	return 0;
}

/* The bytes of p[0..len) a message shows around byte `at`: at most
 * REGEX_EXCERPT_BYTES, a third of them before it, whole UTF-8 characters
 * (never starting or ending on a continuation byte). */
static void excerpt(const char *p, size_t len, size_t at, bool utf8, size_t *from, size_t *to)
{
	size_t start = 0, end = len;
	if (len > REGEX_EXCERPT_BYTES) {
		start = at > REGEX_EXCERPT_BYTES / 3 ? at - REGEX_EXCERPT_BYTES / 3 : 0;
		if (start > len - REGEX_EXCERPT_BYTES)
			start = len - REGEX_EXCERPT_BYTES;
		end = start + REGEX_EXCERPT_BYTES;
	}
	while (utf8 && start > 0 && start < end && ((unsigned char)p[start] & 0xC0) == 0x80)
		start++;
	while (utf8 && end < len && end > start && ((unsigned char)p[end] & 0xC0) == 0x80)
		end--;
	*from = start;
	*to = end;
}

/* Puts "-E pattern 'P': " before err's refusal, P an excerpt of p. */
static void name_pattern(struct regex_error *err, struct pattern p, const struct regex_options *o)
{
	char why[sizeof err->text];
	size_t from, to;
	memcpy(why, err->text, sizeof why);
	excerpt(p.bytes, p.len, err->at, o->utf8, &from, &to);
	int n = snprintf(err->text, sizeof err->text, "-%c pattern '%s%.*s%s': %s",
			 o->syntax == REGEX_EXTENDED ? 'E' : 'G', from ? "..." : "",
			 (int)(to - from), p.bytes + from, to < p.len ? "..." : "", why);
	if (n < 0) /* an encoding error, which %s of bytes cannot have: the refusal alone */
		memcpy(err->text, why, sizeof why);
}

int regex_list_check(const struct pattern_set *ps, const struct regex_options *o, size_t *bad,
		     struct regex_error *err)
{
	uint64_t count = 0, bytes = 0;
	checked_free();
	if (!list_is_fixed(ps, o->syntax))
		checked_start(ps, o);
	for (size_t i = 0; i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		uint64_t c, b;
		struct regex_tree *t = regex_parse(p.bytes, p.len, o, &c, &b, err);
		*bad = i;
		if (!t && !err->syntax)
			name_pattern(err, p, o);
		if (!t) {
			checked_free();
			return -1;
		}
		size_t held = checked.trees ? regex_tree_trim(t) : 0;
		if (checked.trees && checked.held + held <= KEEP_PER_BYTE * checked.len + KEEP_SLACK) {
			checked.trees[i] = t;
			checked.held += held;
		} else {
			regex_tree_free(t);
		}
		count += c;
		bytes += b;
		checked.literals = count;
		checked.bytes = bytes;
		if (count > REGEX_MAX_LITERALS || bytes > REGEX_MAX_BYTES) {
			snprintf(err->text, sizeof err->text, "the patterns expand to more than "
				 "1,000,000 strings or 64 MiB, acgrep's bound; grep %s can search them",
				 o->syntax == REGEX_EXTENDED ? "-E" : "-G");
			err->syntax = false;
			err->at = 0;
			name_pattern(err, p, o);
			checked_free();
			return -1;
		}
	}
	return 0;
}

/* The list as grep -F would take it: each pattern without its escaping
 * backslashes. */
static void drop_backslashes(struct pattern_set *ps)
{
	size_t from = 0, to = 0;
	for (size_t i = 0; i < ps->count; i++) {
		size_t end = ps->end[i];
		for (; from < end; from++) {
			if (ps->storage[from] == '\\' && from + 1 < end)
				from++;
			ps->storage[to++] = ps->storage[from];
		}
		ps->end[i] = (uint32_t)to;
		ps->storage[to++] = '\0';
		from = end + 1;
	}
}

/* For list ps, whose expansion l is empty: the literal grep selects
 * lines by, if any (regex_list_must), as pattern 0's, its matches
 * unseen.  Returns 0, or -1 when out of memory. */
static int add_must(struct literals *l, const struct pattern_set *ps, const struct regex_options *o)
{
	struct regex_must must;
	if (regex_list_must(ps, o, &must) != 0)
		return -1;
	if (!must.bytes)
		return 0;
	l->pattern = 0;
	int rc = add_literal(l, must.bytes, must.len, must.anchors);
	l->out->unseen = rc == 0;
	free(must.bytes);
	return rc;
}

int regex_list_expand(struct pattern_set *ps, const struct regex_options *o, bool *fixed)
{
	*fixed = list_is_fixed(ps, o->syntax);
	bool parsed = !*fixed && checked_is(ps, o);
	if (!parsed)
		checked_free();
	if (*fixed) {
		drop_backslashes(ps);
		return 0;
	}
	struct pattern_set out = { .storage = NULL };
	struct literals l = { .out = &out };
	if (parsed && checked.literals) /* at once; a failure leaves it to grow */
		(void)literals_room(&l, checked.bytes + checked.literals, checked.literals);
	int rc = 0;
	for (size_t i = 0; i < ps->count && rc == 0; i++) {
		struct pattern p = pattern_at(ps, i);
		uint64_t count, bytes;
		struct regex_error err;
		bool kept = parsed && checked.trees[i];
		struct regex_tree *t = kept ? checked.trees[i]
					    : regex_parse(p.bytes, p.len, o, &count, &bytes, &err);
		l.pattern = (uint32_t)i;
		rc = t ? regex_expand(t, add_literal, &l) : -1;
		if (!kept)
			regex_tree_free(t);
	}
	checked_free(); /* the trees it kept, expanded */
	if (rc == 0 && out.count == 0)
		rc = add_must(&l, ps, o);
	free(ps->storage);
	free(ps->end);
	free(ps->given);
	free(ps->anchors);
	if (rc != 0) {
		free(out.anchors);
		free(out.storage);
		free(out.end);
		free(out.given);
		out = (struct pattern_set){ .storage = NULL };
	}
	*ps = out;
	return rc;
}
