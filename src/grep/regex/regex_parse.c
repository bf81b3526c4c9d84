/* SPDX-License-Identifier: MIT */
/* regex_parse.c - GNU grep 3.8's ERE and BRE syntax into a parse tree
 * (see regex.h).
 *
 * Owns: the grammar (alternation, concatenation, grouping, ?, {n,m},
 * anchors, escapes), grep's syntax errors in glibc's words, the refusals
 * of what denotes an infinite set, what acgrep does not expand and the
 * anchors under a repetition where grep's own matchers disagree (each
 * naming the construct and its byte position), and each node's expansion
 * size, checked against the bounds as the tree grows.  Bracket
 * expressions are regex_bracket.c's.
 */
#include "regex_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "grow.h"

/* RE_DUP_MAX: the largest count an interval may give. */
#define DUP_MAX 0x7fff

static uint32_t fail_syntax(struct parser *ps, const char *msg)
{
	snprintf(ps->err->text, sizeof ps->err->text, "%s", msg);
	ps->err->syntax = true;
	return NO_NODE;
}

uint32_t regex_refuse(struct parser *ps, size_t at, const char *what)
{
	snprintf(ps->err->text, sizeof ps->err->text,
		 "byte %zu: %s is not supported: acgrep searches only patterns that match a "
		 "finite set of strings; grep %s can search this one",
		 at + 1, what, ps->o->syntax == REGEX_EXTENDED ? "-E" : "-G");
	ps->err->syntax = false;
	return NO_NODE;
}

/* Saturating: sizes past the bounds only need to stay past them. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint32_t regex_node(struct parser *ps, struct node n, size_t at)
{
	if (n.count > REGEX_MAX_LITERALS || n.bytes > REGEX_MAX_BYTES)
		return regex_refuse(ps, at, "an expansion past 1,000,000 strings or 64 MiB");
	struct regex_tree *t = ps->t;
	if (n.kind == NODE_REP || n.kind == NODE_CAT || n.kind == NODE_ALT) {
		uint32_t a = t->nodes[n.a].nesting, b = n.kind == NODE_REP ? 0 : t->nodes[n.b].nesting;
		n.nesting = (a > b ? a : b) + (n.kind == NODE_REP);
		if (n.nesting > REGEX_MAX_NESTING)
			return regex_refuse(ps, at, "repetitions nested more than 1,000 deep");
	}
	struct node *nn = grow_array(t->nodes, &t->cap, t->n + 1, sizeof *nn, 64);
	if (!nn) {
		snprintf(ps->err->text, sizeof ps->err->text, "memory exhausted");
		ps->err->syntax = true;
		return NO_NODE;
	}
	t->nodes = nn;
	nn[t->n] = n;
	return (uint32_t)t->n++;
}

static const struct node *node_at(const struct parser *ps, uint32_t i)
{
	return &ps->t->nodes[i];
}

static uint32_t cat(struct parser *ps, uint32_t a, uint32_t b, size_t at)
{
	const struct node *x = node_at(ps, a), *y = node_at(ps, b);
	return regex_node(ps, (struct node){
		.kind = NODE_CAT, .a = a, .b = b, .count = sat_mul(x->count, y->count),
		.bytes = sat_add(sat_mul(x->bytes, y->count), sat_mul(y->bytes, x->count)),
	}, at);
}

static uint32_t empty_node(struct parser *ps, enum node_kind kind, size_t at)
{
	return regex_node(ps, (struct node){ .kind = kind, .count = 1 }, at);
}

/* a repeated min to max times: sizes summed over the counts, each
 * a power of a's, stopping once past the bounds. */
static uint32_t repeat(struct parser *ps, uint32_t a, uint32_t min, uint32_t max, size_t at)
{
	const struct node *x = node_at(ps, a);
	uint64_t count = 0, bytes = 0, pc = 1, pb = 0; /* a^k's count and bytes */
	for (uint32_t k = 0; k <= max; k++) {
		if (k >= min) {
			count = sat_add(count, pc);
			bytes = sat_add(bytes, pb);
		}
		if (count > REGEX_MAX_LITERALS || bytes > REGEX_MAX_BYTES)
			break;
		pb = sat_add(sat_mul(pb, x->count), sat_mul(x->bytes, pc));
		pc = sat_mul(pc, x->count);
		if (pc == 0 && k >= min)
			break;
	}
	return regex_node(ps, (struct node){
		.kind = NODE_REP, .a = a, .min = min, .max = max, .count = count, .bytes = bytes,
	}, at);
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
	regex_refuse(ps, ps->anchor_at, what);
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
							      : "+ (unbounded repetition)");
		uint32_t min = 0, max = 1;
		if (op == '{') {
			enum interval r = interval(ps, at, &min, &max);
			if (r == INTERVAL_ERROR)
				return NO_NODE;
			if (r == INTERVAL_LITERAL)
				return a;
			if (max == UINT32_MAX)
				return regex_refuse(ps, at, "{n,} (unbounded repetition)");
		}
		if (ps->anchors > anchors_before && anchor_refused(ps, begin, at, max))
			return NO_NODE;
		a = repeat(ps, a, min, max, at);
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

uint32_t regex_char_node(struct parser *ps, uint32_t c, size_t at)
{
	struct regex_tree *t = ps->t;
	struct char_range *nr = grow_array(t->ranges, &t->cap_ranges, t->n_ranges + 1, sizeof *nr, 64);
	if (!nr)
		return regex_node(ps, (struct node){ .count = UINT64_MAX }, at);
	t->ranges = nr;
	nr[t->n_ranges] = (struct char_range){ .lo = c, .hi = c };
	char ignored[4];
	return regex_node(ps, (struct node){
		.kind = NODE_CHARS, .a = (uint32_t)t->n_ranges++, .b = 1, .count = 1,
		.bytes = regex_encode(c, ps->o->utf8, ignored),
	}, at);
}

static uint32_t parse_alternation(struct parser *ps);

/* What an escape \c outside brackets is: a literal, or refused. */
static uint32_t escape(struct parser *ps, size_t at)
{
	if (ps->i + 1 >= ps->len)
		return fail_syntax(ps, "Trailing backslash");
	unsigned char c = ps->p[ps->i + 1];
	if (c >= '1' && c <= '9') {
		if ((unsigned)(c - '0') > ps->groups)
			return fail_syntax(ps, "Invalid back reference");
		return regex_refuse(ps, at, "a back-reference");
	}
	if (strchr("wWsSbB<>`'", c) && c) {
		char what[48];
		snprintf(what, sizeof what, "\\%c (a word or buffer anchor or class)", c);
		return regex_refuse(ps, at, what);
	}
	const char *literal = ere(ps) ? ".[]*^$\\/+?{}()|" : ".[]*^$\\/";
	if (!c || !strchr(literal, c)) {
		char what[48];
		snprintf(what, sizeof what, c < 0x80 && c >= 0x20 ? "\\%c (an escape of an "
			 "ordinary character)" : "a backslash before a byte above 0x7f or a control",
			 c);
		return regex_refuse(ps, at, what);
	}
	ps->i += 2;
	return regex_char_node(ps, c, at);
}

/* One atom at ps->i (not an alternation or closing operator). */
static uint32_t atom(struct parser *ps, bool branch_start)
{
	size_t at = ps->i;
	unsigned char c = ps->p[at];
	if (op_at(ps, at, '(')) {
		ps->i += op_len(ps);
		if (++ps->depth > REGEX_MAX_NESTING)
			return regex_refuse(ps, at, "groups nested more than 1,000 deep");
		uint32_t sub = parse_alternation(ps);
		if (sub == NO_NODE)
			return NO_NODE;
		if (!op_at(ps, ps->i, ')'))
			return fail_syntax(ps, "Unmatched ( or \\(");
		ps->i += op_len(ps);
		ps->depth--;
		ps->groups++;
		return sub;
	}
	if (c == '[')
		return regex_bracket(ps);
	if (c == '.') {
		if (ps->o->utf8)
			return regex_refuse(ps, at, ". in a UTF-8 locale (any of 1,112,064 characters)");
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
	return regex_char_node(ps, regex_take_char(ps), at);
}

/* Does the text at ps->i end a branch? */
static bool branch_ends(const struct parser *ps)
{
	if (at_end(ps) || op_at(ps, ps->i, '|'))
		return true;
	return op_at(ps, ps->i, ')') && (ps->depth > 0 || !ere(ps));
}

static uint32_t parse_branch(struct parser *ps)
{
	uint32_t branch = NO_NODE;
	bool start = true; /* at the branch's start, or just after its ^ */
	size_t begin = ps->i;
	while (!branch_ends(ps)) {
		size_t at = ps->i, n, anchors_before = ps->anchors;
		uint32_t a;
		if (start && ps->p[at] == '*' && !ere(ps)) { /* a BRE's leading * is literal */
			ps->i++;
			a = regex_char_node(ps, '*', at);
		} else if (start && quantifier_at(ps, &n)) {
			char what[48];
			snprintf(what, sizeof what, "%c at the start of an expression", ps->p[at + n - 1]);
			return regex_refuse(ps, at, what);
		} else {
			a = atom(ps, start);
		}
		if (a == NO_NODE)
			return NO_NODE;
		bool anchor = node_at(ps, a)->kind == NODE_BOL;
		if (anchor && start) {
			start = true;
		} else {
			a = quantifiers(ps, a, at, anchors_before);
			start = false;
		}
		if (a == NO_NODE)
			return NO_NODE;
		branch = branch == NO_NODE ? a : cat(ps, branch, a, at);
		if (branch == NO_NODE)
			return NO_NODE;
	}
	if (!ere(ps) && ps->depth == 0 && op_at(ps, ps->i, ')'))
		return fail_syntax(ps, "Unmatched ) or \\)");
	return branch != NO_NODE ? branch : empty_node(ps, NODE_EMPTY, begin);
}

static uint32_t parse_alternation(struct parser *ps)
{
	uint32_t alt = parse_branch(ps);
	while (alt != NO_NODE && op_at(ps, ps->i, '|')) {
		size_t at = ps->i;
		ps->i += op_len(ps);
		uint32_t b = parse_branch(ps);
		if (b == NO_NODE)
			return NO_NODE;
		const struct node *x = node_at(ps, alt), *y = node_at(ps, b);
		alt = regex_node(ps, (struct node){
			.kind = NODE_ALT, .a = alt, .b = b, .count = sat_add(x->count, y->count),
			.bytes = sat_add(x->bytes, y->bytes),
		}, at);
	}
	return alt;
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
	struct parser ps = {
		.p = (const unsigned char *)p, .len = len, .o = o, .t = t, .err = err,
	};
	uint32_t root = parse_alternation(&ps);
	if (root != NO_NODE && !at_end(&ps)) /* an ERE's unmatched ) is literal: only BRE stops */
		root = fail_syntax(&ps, "Unmatched ) or \\)");
	if (root == NO_NODE) {
		regex_tree_free(t);
		return NULL;
	}
	t->root = root;
	*count = t->nodes[root].count;
	*bytes = t->nodes[root].bytes;
	return t;
}

void regex_tree_free(struct regex_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->ranges);
	free(t);
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
