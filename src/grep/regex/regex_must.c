/* SPDX-License-Identifier: MIT */
/* regex_must.c - the lines GNU grep 3.8 selects for an -E/-G list that
 * matches nothing (see regex.h, regex_list_must).
 *
 * Owns: grep's "exact must" shortcut, emulated.  grep parses the whole
 * list (its distinct patterns joined as alternatives, inside ^( )$ under
 * -x) with its DFA's grammar into postfix tokens, and derives from them
 * a string every match holds.  When that string is the whole of every
 * match (the list is one fixed string, with ^ and $ at its ends where the
 * list has any), grep selects a line by finding the string, without its
 * DFA.  The derivation reads an inner ^ or $ as the empty string, so a
 * list such as '^$-$' or '(^$)-$', whose expansion is empty, still
 * selects the line "-"; glibc's regex, which -o and --color use, finds no
 * match there.  This file rebuilds grep's tokens for such a list (only
 * the constructs acgrep accepts: characters, brackets of one character,
 * groups, |, ?, {n,m}, ^, $; anything else stands for a token that
 * defeats the shortcut) and runs the derivation: per token its
 * guaranteed whole string (empty: none), the strings any match must
 * contain, its known prefix and suffix, and whether it is anchored at a
 * line start or end; runs of plain characters merged as grep merges them.
 */
#include "regex_must.h"
#include "regex_parse.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "grow.h"

/* Past this many tokens the list is not analysed: regex_list_must fails
 * (as for want of memory) rather than guess. */
#define MUST_MAX_TOKENS ((size_t)1 << 22)

/* The lexer's tokens. */
enum lex_kind {
	L_END, L_CHAR, L_SET, L_OPAQUE, L_BOL, L_EOL, L_QMARK, L_STAR, L_REPMN, L_OR, L_LPAREN,
	L_RPAREN,
};

struct must_parse {
	const unsigned char *p;
	size_t len, i;
	const struct regex_options *o;
	int last, tok;
	bool laststart;
	unsigned parens;
	unsigned char chr[4]; /* L_CHAR's bytes; L_SET's byte in chr[0] */
	size_t chr_len;
	long min, max;        /* L_REPMN's counts, max -1 unbounded */
	struct tok *v;
	size_t n, cap;
	bool fail;            /* out of memory, too many tokens, or not grep's syntax */
	struct regex_tree *scratch; /* for regex_bracket */
};

/* Code points whose upper case maps back to another lower case too. */
static const uint32_t lonesome_lower[] = {
	0x00B5, 0x0131, 0x017F, 0x01C5, 0x01C8, 0x01CB, 0x01F2, 0x0345, 0x03C2,
	0x03D0, 0x03D1, 0x03D5, 0x03D6, 0x03F0, 0x03F1, 0x03F5, 0x1E9B, 0x1FBE,
};

/* Does -i give wc other characters in a UTF-8 locale (grep's DFA then
 * makes it an alternation)? */
static bool has_case_counterparts(wint_t wc)
{
	wint_t up = towupper(wc), low = towlower(up);
	if (up != wc || (low != up && low != wc && towupper(low) == up))
		return true;
	for (size_t k = 0; k < sizeof lonesome_lower / sizeof *lonesome_lower; k++) {
		wint_t li = (wint_t)lonesome_lower[k];
		if (li != low && li != up && li != wc && towupper(li) == up)
			return true;
	}
	return false;
}

static bool ere_syntax(const struct must_parse *mp)
{
	return mp->o->syntax == REGEX_EXTENDED;
}

/* A character (of the locale) at mp->i, advanced past: L_CHAR, or
 * L_SET / L_OPAQUE as -i and the encoding make it. */
static int plain_char(struct must_parse *mp, size_t at)
{
	unsigned char c = mp->p[at];
	mp->laststart = false;
	if (!mp->o->utf8) {
		mp->i = at + 1;
		bool fold = mp->o->ignore_case && isalpha(c);
		mp->chr[0] = fold ? (unsigned char)toupper(c) : c;
		mp->chr_len = 1;
		return c == 0 ? L_OPAQUE : fold ? L_SET : L_CHAR;
	}
	wchar_t wc = 0;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = c < 0x80 ? 1 : mbrtowc(&wc, (const char *)mp->p + at, mp->len - at, &st);
	if (c < 0x80)
		wc = c;
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0 || n > sizeof mp->chr) {
		mp->i = at + 1;
		return L_OPAQUE; /* an encoding error: grep's DFA defers to regex */
	}
	mp->i = at + n;
	memcpy(mp->chr, mp->p + at, n);
	mp->chr_len = n;
	if (c == 0 || (mp->o->ignore_case && has_case_counterparts((wint_t)wc)))
		return L_OPAQUE;
	return L_CHAR;
}

/* The bracket expression at byte `at`: one character (L_CHAR or L_SET),
 * else L_OPAQUE, as grep's DFA reads it. */
static int bracket(struct must_parse *mp, size_t at)
{
	struct regex_error err;
	struct parser ps = { .p = mp->p, .len = mp->len, .i = at, .o = mp->o, .t = mp->scratch,
			     .err = &err };
	uint32_t node = regex_bracket(&ps);
	mp->laststart = false;
	if (node == NO_NODE) {
		mp->fail = true;
		return L_OPAQUE;
	}
	mp->i = ps.i;
	for (size_t k = at + 1; k + 1 < ps.i; k++) /* [=c=], [.c.]: an unknown set to the DFA */
		if (mp->p[k] == '[' && (mp->p[k + 1] == '=' || mp->p[k + 1] == '.'))
			return L_OPAQUE;
	const struct node *nd = &mp->scratch->nodes[node];
	const struct char_range *r = mp->scratch->ranges + nd->a;
	if (nd->kind != NODE_CHARS || nd->b == 0 || (r[0].lo & RAW_BYTE))
		return L_OPAQUE;
	uint32_t c = r[0].lo;
	if (!mp->o->utf8) { /* bytes: one, or all of one case under -i */
		int up = toupper((int)c);
		for (uint32_t k = 0; k < nd->b; k++)
			for (uint32_t b = r[k].lo; b <= r[k].hi; b++)
				if (b != c && !(mp->o->ignore_case && toupper((int)b) == up))
					return L_OPAQUE;
		mp->chr[0] = (unsigned char)(mp->o->ignore_case ? up : (int)c);
		return c == 0 ? L_OPAQUE : L_SET;
	}
	if (nd->b != 1 || r[0].hi != c || c == 0 ||
	    (mp->o->ignore_case && has_case_counterparts((wint_t)c)))
		return L_OPAQUE;
	mp->chr_len = regex_encode(c, true, (char *)mp->chr);
	return c < 0x80 ? L_SET : L_CHAR;
}

/* An interval after its opening operator (mp->i past it; `bs`: BRE's):
 * L_REPMN with its counts, or as an ERE's invalid one, a literal '{'. */
static int interval(struct must_parse *mp, size_t open, bool bs)
{
	size_t k = mp->i;
	long min = -1, max = -1;
	for (; k < mp->len && isdigit(mp->p[k]); k++)
		min = min < 0 ? mp->p[k] - '0' : (min * 10 + mp->p[k] - '0' > 0x8000 ? 0x8000
						   : min * 10 + mp->p[k] - '0');
	if (k < mp->len && mp->p[k] != ',')
		max = min;
	else if (k < mp->len) {
		min = min < 0 ? 0 : min;
		while (++k < mp->len && isdigit(mp->p[k]))
			max = max < 0 ? mp->p[k] - '0' : (max * 10 + mp->p[k] - '0' > 0x8000 ? 0x8000
							  : max * 10 + mp->p[k] - '0');
	}
	bool ok = (!bs || (k < mp->len && mp->p[k++] == '\\')) && k < mp->len && mp->p[k++] == '}' &&
		  min >= 0 && (max < 0 || min <= max);
	if (!ok && ere_syntax(mp))
		return plain_char(mp, open);
	if (!ok || mp->laststart) { /* not what acgrep accepts */
		mp->fail = true;
		return L_END;
	}
	mp->i = k;
	mp->min = min;
	mp->max = max;
	mp->laststart = false;
	return L_REPMN;
}

/* Is the text at i (after a $) BRE's or ERE's operator op ('|' or ')')? */
static bool op_follows(const struct must_parse *mp, size_t i, char op)
{
	bool bs = !ere_syntax(mp);
	return mp->len - i > (size_t)bs && mp->p[i + (bs & (mp->p[i] == '\\'))] == op;
}

/* The next token, as grep's DFA lexer reads the constructs acgrep
 * accepts. */
static int lex_token(struct must_parse *mp)
{
	bool ere = ere_syntax(mp), bs = false;
	for (;;) {
		if (mp->i >= mp->len)
			return L_END;
		size_t at = mp->i;
		unsigned char c = mp->p[mp->i++];
		if (c == '\\' && !bs) {
			bs = true;
			continue;
		}
		if (bs && strchr("123456789`'<>bBsSwW", c) && c) {
			mp->laststart = false;
			return L_OPAQUE; /* refused by acgrep: never here */
		}
		bool op = bs != ere; /* a backslash makes an operator of BRE's, a literal of ERE's */
		switch (c) {
		case '^':
			if (!bs && (ere || mp->last == L_END || mp->last == L_LPAREN || mp->last == L_OR))
				return L_BOL;
			break;
		case '$':
			if (!bs && (ere || mp->i == mp->len || op_follows(mp, mp->i, ')') ||
				    op_follows(mp, mp->i, '|') || mp->p[mp->i] == '\n'))
				return L_EOL;
			break;
		case '?':
			if (!op || (mp->laststart && !ere))
				break;
			return L_QMARK;
		case '*':
			if (bs || (mp->laststart && !ere))
				break;
			return L_STAR;
		case '+': /* refused by acgrep: never here */
			if (!op || (mp->laststart && !ere))
				break;
			return L_STAR;
		case '{':
			if (op)
				return interval(mp, at, bs);
			break;
		case '|': case '\n':
			if (c == '\n' || op) {
				mp->laststart = true;
				return L_OR;
			}
			break;
		case '(':
			if (!op)
				break;
			mp->parens++;
			mp->laststart = true;
			return L_LPAREN;
		case ')':
			if (!op || (mp->parens == 0 && ere))
				break;
			mp->parens--;
			mp->laststart = false;
			return L_RPAREN;
		case '.':
			if (bs)
				break;
			mp->laststart = false;
			return L_OPAQUE;
		case '[':
			if (!bs)
				return bracket(mp, at);
			break;
		}
		return plain_char(mp, at);
	}
}

static void lex(struct must_parse *mp)
{
	mp->tok = mp->last = lex_token(mp);
}

static void emit(struct must_parse *mp, enum tok_kind kind, unsigned char c)
{
	if (mp->fail)
		return;
	struct tok *nv = mp->n < MUST_MAX_TOKENS ? grow_array(mp->v, &mp->cap, mp->n + 1, sizeof *nv, 64)
						 : NULL;
	if (!nv) {
		mp->fail = true;
		return;
	}
	mp->v = nv;
	mp->v[mp->n++] = (struct tok){ .kind = (uint8_t)kind, .c = c };
}

/* The tokens of the subexpression that ends where token `end` starts. */
static size_t subexpression(const struct must_parse *mp, size_t end)
{
	size_t i = end, need = 1;
	while (need > 0 && i > 0) {
		enum tok_kind k = mp->v[--i].kind;
		need += (k == T_CAT || k == T_OR) ? 1 : k == T_QMARK ? 0 : (size_t)-1;
	}
	return end - i;
}

static void copy_tokens(struct must_parse *mp, size_t from, size_t count)
{
	for (size_t k = 0; k < count && !mp->fail; k++)
		emit(mp, (enum tok_kind)mp->v[from + k].kind, mp->v[from + k].c);
}

static void alternation(struct must_parse *mp);

static void atom(struct must_parse *mp)
{
	switch (mp->tok) {
	case L_CHAR:
		emit(mp, T_CHAR, mp->chr[0]);
		for (size_t k = 1; k < mp->chr_len; k++) {
			emit(mp, T_CHAR, mp->chr[k]);
			emit(mp, T_CAT, 0);
		}
		break;
	case L_SET: case L_OPAQUE: case L_BOL: case L_EOL:
		emit(mp, mp->tok == L_SET ? T_SET : mp->tok == L_OPAQUE ? T_OPAQUE
			 : mp->tok == L_BOL ? T_BOL : T_EOL, mp->chr[0]);
		break;
	case L_LPAREN:
		lex(mp);
		alternation(mp);
		if (mp->tok != L_RPAREN)
			mp->fail = true;
		break;
	default: /* the empty string, nothing read */
		emit(mp, T_OPAQUE, 0);
		return;
	}
	lex(mp);
}

/* An atom and its repetitions: {n,m} copies the atom's tokens as grep
 * does; {0} drops them and takes the next closure in their place. */
static void closure(struct must_parse *mp)
{
	atom(mp);
	while (!mp->fail && (mp->tok == L_QMARK || mp->tok == L_STAR || mp->tok == L_REPMN)) {
		if (mp->tok == L_REPMN && (mp->min || mp->max)) {
			size_t count = subexpression(mp, mp->n), from = mp->n - count;
			long i = 1;
			if (mp->max < 0)
				mp->fail = true; /* unbounded: refused by acgrep */
			if (mp->min == 0)
				emit(mp, T_QMARK, 0);
			for (; i < mp->min && !mp->fail; i++) {
				copy_tokens(mp, from, count);
				emit(mp, T_CAT, 0);
			}
			for (; i < mp->max && !mp->fail; i++) {
				copy_tokens(mp, from, count);
				emit(mp, T_QMARK, 0);
				emit(mp, T_CAT, 0);
			}
			lex(mp);
		} else if (mp->tok == L_REPMN) {
			mp->n -= subexpression(mp, mp->n);
			lex(mp);
			closure(mp);
		} else {
			mp->fail = mp->fail || mp->tok == L_STAR; /* refused by acgrep */
			emit(mp, T_QMARK, 0);
			lex(mp);
		}
	}
}

static void alternation(struct must_parse *mp)
{
	for (bool first = true; !mp->fail; first = false) {
		closure(mp);
		while (!mp->fail && mp->tok != L_RPAREN && mp->tok != L_OR && mp->tok != L_END) {
			closure(mp);
			emit(mp, T_CAT, 0);
		}
		if (!first)
			emit(mp, T_OR, 0);
		if (mp->tok != L_OR)
			return;
		lex(mp);
	}
}

/* The postfix tokens of mp->p (the list as grep's DFA parses it) into
 * mp->v.  False when they cannot be had (mp->fail). */
static bool parse_tokens(struct must_parse *mp)
{
	mp->last = L_END;
	mp->laststart = true;
	if (!(mp->scratch = calloc(1, sizeof *mp->scratch)))
		return false;
	mp->scratch->utf8 = mp->o->utf8;
	lex(mp);
	alternation(mp);
	if (mp->tok != L_END)
		mp->fail = true;
	regex_tree_free(mp->scratch);
	return !mp->fail;
}

/* A pattern and its place in the list, to find duplicates. */
struct listed {
	struct pattern p;
	size_t i;
};

static int by_bytes(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	int c = memcmp(x->p.bytes, y->p.bytes, x->p.len < y->p.len ? x->p.len : y->p.len);
	if (c == 0)
		c = x->p.len < y->p.len ? -1 : x->p.len > y->p.len;
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static void put(char *text, size_t *n, const char *s, size_t len)
{
	memcpy(text + *n, s, len);
	*n += len;
}

/* The list as grep's DFA reads it: its distinct patterns, first
 * occurrences in order, joined by newlines, inside ^( )$ (BRE: ^\( \)$)
 * under -x.  NULL when out of memory. */
static char *list_text(const struct pattern_set *ps, const struct regex_options *o, size_t *len)
{
	size_t count = ps->count;
	struct listed *sorted = malloc(count * sizeof *sorted);
	bool *dup = calloc(count, sizeof *dup);
	char *text = malloc((size_t)ps->end[count - 1] + 1 + 8);
	if (!sorted || !dup || !text) {
		free(sorted);
		free(dup);
		free(text);
		return NULL;
	}
	for (size_t i = 0; i < count; i++)
		sorted[i] = (struct listed){ .p = pattern_at(ps, i), .i = i };
	qsort(sorted, count, sizeof *sorted, by_bytes);
	for (size_t k = 1; k < count; k++)
		dup[sorted[k].i] = sorted[k].p.len == sorted[k - 1].p.len &&
				   memcmp(sorted[k].p.bytes, sorted[k - 1].p.bytes, sorted[k].p.len) == 0;
	bool bre = o->syntax == REGEX_BASIC;
	size_t n = 0;
	if (o->line)
		put(text, &n, bre ? "^\\(" : "^(", bre ? 3 : 2);
	for (size_t i = 0, kept = 0; i < count; i++) {
		if (dup[i])
			continue;
		if (kept++)
			text[n++] = '\n';
		struct pattern p = pattern_at(ps, i);
		put(text, &n, p.bytes, p.len);
	}
	if (o->line)
		put(text, &n, bre ? "\\)$" : ")$", bre ? 3 : 2);
	free(sorted);
	free(dup);
	*len = n;
	return text;
}

int regex_list_must(const struct pattern_set *ps, const struct regex_options *o,
		    struct regex_must *out)
{
	*out = (struct regex_must){ .bytes = NULL };
	if (ps->count == 0 || (o->word && !o->line)) /* -w's wrapping defeats the shortcut */
		return 0;
	size_t len;
	char *text = list_text(ps, o, &len);
	if (!text)
		return -1;
	struct must_parse mp = { .p = (const unsigned char *)text, .len = len, .o = o };
	bool oom = false;
	int rc = parse_tokens(&mp) ? 0 : -1;
	if (rc == 0) {
		regex_must_derive(mp.v, mp.n, out, &oom);
		rc = oom ? -1 : 0;
	}
	free(mp.v);
	free(text);
	if (rc != 0) {
		free(out->bytes);
		out->bytes = NULL;
	}
	return rc;
}
