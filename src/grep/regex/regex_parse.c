/* SPDX-License-Identifier: MIT */
/* regex_parse.c - GNU grep 3.8's ERE and BRE syntax into a parse tree
 * (see regex.h).
 *
 * Owns: the grammar (alternation, concatenation, grouping, ?, {n,m},
 * anchors, escapes), grep's syntax errors in glibc's words, which
 * constructs are refused (what denotes an infinite set, what acgrep does
 * not expand, the anchors under a repetition where grep's own matchers
 * disagree; each at its byte position), and the one pass over the
 * pattern: runs of plain bytes are taken whole.  The nodes, their sizes
 * and the refusals' words are regex_tree.c's; bracket expressions
 * regex_bracket.c's.
 */
#include "regex_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* RE_DUP_MAX: the largest count an interval may give. */
#define DUP_MAX 0x7fff

static uint32_t fail_syntax(struct parser *ps, const char *msg)
{
	snprintf(ps->err->text, sizeof ps->err->text, "%s", msg);
	ps->err->syntax = true;
	return NO_NODE;
}

static uint32_t empty_node(struct parser *ps, enum node_kind kind, size_t at)
{
	return regex_node(ps, (struct node){ .kind = kind, .count = 1 }, at);
}

static bool at_end(const struct parser *ps)
{
	return ps->i >= ps->len;
}

static bool ere(const struct parser *ps)
{
	return ps->o->syntax == REGEX_EXTENDED;
}

/* Is the text at i the operator op (ERE: the byte; BRE: backslash and byte)? */
static bool op_at(const struct parser *ps, size_t i, char op)
{
	if (ere(ps))
		return i < ps->len && ps->p[i] == op;
	return i + 1 < ps->len && ps->p[i] == '\\' && ps->p[i + 1] == op;
}

static size_t op_len(const struct parser *ps)
{
	return ere(ps) ? 1 : 2;
}

/* One number of an interval as glibc's fetch_number reads it: -1 when
 * no digit, -2 when invalid or the pattern ends; *stop: what ended it
 * ('}' for the closing operator, ',', or 0 at the end). */
static long fetch_number(struct parser *ps, char *stop)
{
	long num = -1;
	for (;;) {
		if (at_end(ps)) {
			*stop = 0;
			return -2;
		}
		if (op_at(ps, ps->i, '}')) {
			ps->i += op_len(ps);
			*stop = '}';
			return num;
		}
		unsigned char c = ps->p[ps->i];
		ps->i += c == '\\' && ps->i + 1 < ps->len ? 2 : 1;
		if (c == ',') {
			*stop = ',';
			return num;
		}
		num = c < '0' || c > '9' || num == -2 ? -2
		      : num == -1 ? c - '0' : (num * 10 + c - '0' > DUP_MAX ? DUP_MAX + 1 : num * 10 + c - '0');
	}
}

enum interval { INTERVAL_OK, INTERVAL_LITERAL, INTERVAL_ERROR };

/* The interval whose opening operator ends at ps->i, as glibc's
 * parse_dup_op: *max = UINT32_MAX when unbounded.  An invalid one is a
 * literal '{' in ERE (ps->i is then left at the '{'). */
static enum interval interval(struct parser *ps, size_t open, uint32_t *min, uint32_t *max)
{
	char stop;
	long start = fetch_number(ps, &stop), end = 0;
	if (start == -1) {
		if (stop != ',') {
			fail_syntax(ps, "Invalid content of \\{\\}");
			return INTERVAL_ERROR;
		}
		start = 0;
	}
	if (start != -2)
		end = stop == '}' ? start : stop == ',' ? fetch_number(ps, &stop) : -2;
	if (start == -2 || end == -2) {
		if (ere(ps)) {
			ps->i = open;
			return INTERVAL_LITERAL;
		}
		fail_syntax(ps, stop == 0 ? "Unmatched \\{" : "Invalid content of \\{\\}");
		return INTERVAL_ERROR;
	}
	if ((end != -1 && start > end) || stop != '}') {
		fail_syntax(ps, "Invalid content of \\{\\}");
		return INTERVAL_ERROR;
	}
	if ((end == -1 ? start : end) > DUP_MAX) {
		fail_syntax(ps, "Regular expression too big");
		return INTERVAL_ERROR;
	}
	*min = (uint32_t)start;
	*max = end == -1 ? UINT32_MAX : (uint32_t)end;
	return INTERVAL_OK;
}

/* Is the text at ps->i a repetition operator?  Its length in *n. */
static bool quantifier_at(const struct parser *ps, size_t *n)
{
	if (at_end(ps))
		return false;
	*n = op_len(ps);
	if (ps->p[ps->i] == '*') {
		*n = 1;
		return true;
	}
	return op_at(ps, ps->i, '?') || op_at(ps, ps->i, '+') || op_at(ps, ps->i, '{');
}

/* Refuses an anchor under a repetition where GNU grep's two matchers
 * disagree: its DFA (which selects lines) reads ^ and $ as assertions
 * anywhere, while glibc's regex (-o, --color, -w's retries) drops a
 * repetition of a bare anchor (x$? is x$ there) and loses matches away
 * from a line start once a group holding an anchor is copied by a count
 * above one ((^A|){2}B finds no B in xAB).  An anchor in a group that is
 * at most once ((^A)?, (x|$){0,1}) is exact and stays.  `begin` is the
 * atom's first byte, ps->p[op .. ps->i) the repetition operator, max its
 * largest count.  Returns whether it refused (the error set). */
static bool anchor_refused(struct parser *ps, size_t begin, size_t op, uint32_t max)
{
	unsigned char anchor = ps->p[ps->anchor_at];
	char what[96];
	if (ps->anchor_at == begin)
		snprintf(what, sizeof what, "%.*s after the anchor %c",
			 ps->i - op > 64 ? 64 : (int)(ps->i - op), (const char *)ps->p + op, anchor);
	else if (max >= 2)
		snprintf(what, sizeof what, "%c inside a group that repeats", anchor);
	else
		return false;
	regex_refuse(ps, ps->anchor_at, what, REFUSE_ANCHOR);
	return true;
}

/* The repetitions following an atom a that began at byte `begin`
 * (holding an anchor when ps->anchors passed anchors_before): ? and
 * {n,m} wrap it, * and + (and {n,}) are refused.  ERE's invalid interval
 * stays for the next atom as a literal '{'. */
static uint32_t quantifiers(struct parser *ps, uint32_t a, size_t begin, size_t anchors_before)
{
	size_t n;
	while (a != NO_NODE && quantifier_at(ps, &n)) {
		size_t at = ps->i;
		char op = ps->p[at + n - 1];
		ps->i += n;
		if (op == '*' || op == '+')
			return regex_refuse(ps, at, op == '*' ? "* (unbounded repetition)"
					    : "+ (unbounded repetition)", REFUSE_INFINITE);
		uint32_t min = 0, max = 1;
		if (op == '{') {
			enum interval r = interval(ps, at, &min, &max);
			if (r == INTERVAL_ERROR)
				return NO_NODE;
			if (r == INTERVAL_LITERAL)
				return a;
			if (max == UINT32_MAX)
				return regex_refuse(ps, at, "{n,} (unbounded repetition)",
						    REFUSE_INFINITE);
		}
		if (ps->anchors > anchors_before && anchor_refused(ps, begin, at, max))
			return NO_NODE;
		a = regex_repeat(ps, a, min, max, at);
	}
	return a;
}

/* The character starting at ps->i as a range bound: a whole UTF-8
 * character, or one byte.  Advances past it. */
uint32_t regex_take_char(struct parser *ps)
{
	unsigned char c = ps->p[ps->i];
	if (!ps->o->utf8 || c < 0x80) {
		ps->i++;
		return c;
	}
	wchar_t wc;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = mbrtowc(&wc, (const char *)ps->p + ps->i, ps->len - ps->i, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		ps->i++;
		return RAW_BYTE | c;
	}
	ps->i += n;
	return (uint32_t)wc;
}

static uint32_t parse_alternation(struct parser *ps);

/* What an escape \c outside brackets is: a literal, or refused. */
static uint32_t escape(struct parser *ps, size_t at)
{
	if (ps->i + 1 >= ps->len)
		return fail_syntax(ps, "Trailing backslash");
	unsigned char c = ps->p[ps->i + 1];
	if (c >= '1' && c <= '9') {
		if (!(ps->closed >> (c - '0') & 1))
			return fail_syntax(ps, "Invalid back reference");
		return regex_refuse(ps, at, "a back-reference", REFUSE_BACKREF);
	}
	if (strchr("wWsSbB<>`'", c) && c) {
		char what[48];
		snprintf(what, sizeof what, "\\%c (a word or buffer anchor or class)", c);
		return regex_refuse(ps, at, what, REFUSE_CONTEXT);
	}
	const char *literal = ere(ps) ? ".[]*^$\\/+?{}()|" : ".[]*^$\\/";
	if (!c || !strchr(literal, c)) {
		char what[48];
		snprintf(what, sizeof what, c < 0x80 && c >= 0x20 ? "\\%c (an escape of an "
			 "ordinary character)" : "a backslash before a byte above 0x7f or a control",
			 c);
		return regex_refuse(ps, at, what, REFUSE_UNDEFINED);
	}
	ps->i += 2;
	return regex_char_node(ps, c, at);
}

/* Whether nothing but ')' follows byte `at`.  An ERE's unmatched ) is a
 * literal, but grep's -x and -w wrap the pattern in a group of their own
 * for its DFA, which this ) then closes: the pattern grep's DFA selects by
 * has the ) moved to its end.  That changes nothing only when the rest is
 * )s alone. */
static bool only_closing_after(const struct parser *ps, size_t at)
{
	while (++at < ps->len)
		if (ps->p[at] != ')')
			return false;
	return true;
}

/* One atom at ps->i (not an alternation or closing operator). */
static uint32_t atom(struct parser *ps, bool branch_start)
{
	size_t at = ps->i;
	unsigned char c = ps->p[at];
	if (op_at(ps, at, '(')) {
		ps->i += op_len(ps);
		if (++ps->depth > REGEX_MAX_NESTING)
			return regex_refuse(ps, at, "groups nested more than 1,000 deep", REFUSE_NESTING);
		unsigned number = ++ps->groups;
		uint32_t sub = parse_alternation(ps);
		if (sub == NO_NODE)
			return NO_NODE;
		if (!op_at(ps, ps->i, ')'))
			return fail_syntax(ps, "Unmatched ( or \\(");
		ps->i += op_len(ps);
		ps->depth--;
		if (number <= 9)
			ps->closed |= 1u << number;
		return sub;
	}
	if (c == '[')
		return regex_bracket(ps);
	if (c == '.') {
		if (ps->o->utf8)
			return regex_refuse(ps, at, ". in a UTF-8 locale (any of 1,112,064 characters)",
					    REFUSE_BOUND);
		ps->i++;
		return regex_any_byte(ps, at);
	}
	if (c == '^' && (ere(ps) || branch_start)) {
		ps->i++;
		ps->anchors++;
		ps->anchor_at = at;
		return empty_node(ps, NODE_BOL, at);
	}
	if (c == '$' && (ere(ps) || at + 1 == ps->len || op_at(ps, at + 1, ')') ||
			 op_at(ps, at + 1, '|'))) {
		ps->i++;
		ps->anchors++;
		ps->anchor_at = at;
		return empty_node(ps, NODE_EOL, at);
	}
	if (c == '\\')
		return escape(ps, at);
	if (c == ')' && (ps->o->line || ps->o->word) && !only_closing_after(ps, at))
		return regex_refuse(ps, at, "an unmatched ) followed by more of the pattern, with -x or -w,",
				    REFUSE_WRAPPED);
	return regex_char_node(ps, regex_take_char(ps), at);
}

/* Does the text at ps->i end a branch? */
static bool branch_ends(const struct parser *ps)
{
	if (at_end(ps) || op_at(ps, ps->i, '|'))
		return true;
	return op_at(ps, ps->i, ')') && (ps->depth > 0 || !ere(ps));
}

/* Is byte c a literal character wherever it stands in a branch (the
 * first byte of no operator, escape or bracket)?  Bytes above 0x7f are
 * left to regex_take_char, which reads whole UTF-8 characters. */
enum { SPECIAL_BOTH = 1, SPECIAL_ERE = 2 };
static const unsigned char special[0x80] = {
	['\\'] = SPECIAL_BOTH, ['['] = SPECIAL_BOTH, ['.'] = SPECIAL_BOTH, ['^'] = SPECIAL_BOTH,
	['$'] = SPECIAL_BOTH, ['*'] = SPECIAL_BOTH, ['('] = SPECIAL_ERE, [')'] = SPECIAL_ERE,
	['|'] = SPECIAL_ERE, ['+'] = SPECIAL_ERE, ['?'] = SPECIAL_ERE, ['{'] = SPECIAL_ERE,
};

static unsigned special_mask(const struct parser *ps)
{
	return ere(ps) ? SPECIAL_BOTH | SPECIAL_ERE : SPECIAL_BOTH;
}

static bool plain_byte(const struct parser *ps, unsigned char c)
{
	return c < 0x80 && !(special[c] & special_mask(ps));
}

/* The end of the plain bytes from byte `at` on. */
static size_t plain_end(const struct parser *ps, size_t at)
{
	size_t end = at, len = ps->len;
	const unsigned char *p = ps->p;
	unsigned mask = special_mask(ps); /* the loop's per byte: a load, two tests */
	while (end < len && p[end] < 0x80 && !(special[p[end]] & mask))
		end++;
	return end;
}

/* The plain bytes at ps->i, but the last when a repetition follows it,
 * added to the end of b as one string.  Returns false on an error. */
static bool plain_run(struct parser *ps, struct branch *b)
{
	size_t at = ps->i, end = plain_end(ps, at), n;
	ps->i = end;
	if (quantifier_at(ps, &n))
		end--;
	ps->i = end;
	if (end == at)
		return true;
	uint32_t off = regex_add_text(ps, ps->p + at, end - at);
	if (off == UINT32_MAX) {
		regex_oom(ps);
		return false;
	}
	return regex_branch_string(ps, b, off, end - at, at, true);
}

/* The end of the branch at ps->i when it is one run of plain bytes (a
 * word of a list joined by |), else 0.  A run past the bound on bytes is
 * not one: the general path refuses it at its byte. */
static size_t plain_branch_end(struct parser *ps)
{
	size_t at = ps->i, end = plain_end(ps, at);
	ps->i = end;
	bool whole = end > at && end - at <= REGEX_MAX_BYTES && branch_ends(ps);
	ps->i = at;
	return whole ? end : 0;
}

/* Is the branch at ps->i one run of plain bytes?  Then *node is its
 * string node, made at once (NO_NODE on error), its text where the
 * pattern has it (the tree's text starts with the pattern), and ps->i is
 * past it; the general path makes the same node in more steps. */
static bool plain_branch(struct parser *ps, uint32_t *node)
{
	size_t at = ps->i, end = plain_branch_end(ps);
	if (!end)
		return false;
	ps->i = end;
	*node = regex_node(ps, (struct node){ .kind = NODE_STRING, .a = (uint32_t)at,
					      .b = (uint32_t)(end - at), .count = 1,
					      .bytes = (uint32_t)(end - at) }, at);
	return true;
}

static uint32_t parse_branch(struct parser *ps)
{
	uint32_t plain;
	if (plain_branch(ps, &plain))
		return plain;
	struct branch b = { .head = NO_NODE, .run = NO_NODE };
	bool start = true; /* at the branch's start, or just after its ^ */
	size_t begin = ps->i;
	while (!branch_ends(ps)) {
		size_t at = ps->i, n, anchors_before = ps->anchors;
		uint32_t a;
		if (plain_byte(ps, ps->p[at])) {
			if (!plain_run(ps, &b))
				return NO_NODE;
			if (ps->i > at) {
				start = false;
				continue;
			}
		}
		if (start && ps->p[at] == '*' && !ere(ps)) { /* a BRE's leading * is literal */
			ps->i++;
			a = regex_char_node(ps, '*', at);
		} else if (start && quantifier_at(ps, &n)) {
			char what[48];
			snprintf(what, sizeof what, "%c at the start of an expression", ps->p[at + n - 1]);
			return regex_refuse(ps, at, what, REFUSE_UNDEFINED);
		} else {
			a = atom(ps, at == begin); /* BRE: ^ anchors only there */
		}
		if (a == NO_NODE)
			return NO_NODE;
		bool anchor = ps->t->nodes[a].kind == NODE_BOL;
		if (anchor && start) {
			start = true;
		} else {
			a = quantifiers(ps, a, at, anchors_before);
			start = false;
		}
		if (a == NO_NODE || !regex_branch_add(ps, &b, a, at))
			return NO_NODE;
	}
	if (!ere(ps) && ps->depth == 0 && op_at(ps, ps->i, ')'))
		return fail_syntax(ps, "Unmatched ) or \\)");
	if (b.run != NO_NODE && !regex_branch_end(ps, &b, ps->i))
		return NO_NODE;
	return b.head != NO_NODE ? b.head : empty_node(ps, NODE_EMPTY, begin);
}

/* Branches joined by |: one node for them all; those after the first
 * that are one run of plain bytes are words, with no node each. */
static uint32_t parse_alternation(struct parser *ps)
{
	uint32_t first = parse_branch(ps);
	if (first == NO_NODE || !op_at(ps, ps->i, '|'))
		return first;
	struct alternation x = { .base = ps->n_alts };
	bool ok = regex_alternative(ps, &x, first, ps->i);
	while (ok && op_at(ps, ps->i, '|')) {
		size_t at = ps->i;
		ps->i += op_len(ps);
		size_t from = ps->i, to = plain_branch_end(ps);
		if (to) {
			ps->i = to;
			ok = regex_alternative_word(ps, &x, from, to, at);
			continue;
		}
		uint32_t b = parse_branch(ps);
		ok = b != NO_NODE && regex_alternative(ps, &x, b, at);
	}
	return ok ? regex_alt(ps, &x) : NO_NODE;
}

struct regex_tree *regex_parse(const char *p, size_t len, const struct regex_options *o,
			       uint64_t *count, uint64_t *bytes, struct regex_error *err)
{
	struct regex_tree *t = calloc(1, sizeof *t);
	if (!t) {
		*err = (struct regex_error){ .text = "memory exhausted", .syntax = true };
		return NULL;
	}
	t->utf8 = o->utf8;
	t->text = len ? malloc(len) : NULL;
	if (len && !t->text) {
		free(t);
		*err = (struct regex_error){ .text = "memory exhausted", .syntax = true };
		return NULL;
	}
	if (len)
		memcpy(t->text, p, len);
	t->text_len = t->text_cap = t->pattern_len = len;
	t->word_op = o->syntax == REGEX_EXTENDED ? '|' : '\\';
	struct parser ps = {
		.p = (const unsigned char *)p, .len = len, .o = o, .t = t, .err = err,
	};
	uint32_t root = parse_alternation(&ps);
	if (root != NO_NODE && !at_end(&ps)) /* an ERE's unmatched ) is literal: only BRE stops */
		root = fail_syntax(&ps, "Unmatched ) or \\)");
	free(ps.alts);
	if (root == NO_NODE) {
		regex_tree_free(t);
		return NULL;
	}
	t->root = root;
	*count = t->nodes[root].count;
	*bytes = t->nodes[root].bytes;
	return t;
}

bool regex_list_is_fixed(const char *p, size_t len, enum regex_syntax syntax)
{
	bool bre = syntax == REGEX_BASIC;
	for (size_t i = 0; i < len; i++) {
		char c = p[i];
		if (strchr("$*.[^", c) && c)
			return false;
		if (strchr("(+?{|", c) && c && !bre)
			return false;
		if (c != '\\' || i + 1 >= len)
			continue;
		char d = p[++i];
		if (d == '\n' || (strchr("BSW'<bsw`>123456789", d) && d))
			return false;
		if (bre && strchr("(+?{|", d) && d)
			return false;
	}
	return true;
}
