/* SPDX-License-Identifier: MIT */
/* regex_bracket.c - bracket expressions and . as sets of characters
 * (see regex.h).
 *
 * Owns: a bracket's syntax ([]...], [^...], ranges, [:class:], [=c=] and
 * [.c.] of one character) and grep's errors for it; its members: bytes in
 * a single-byte locale (ranges by byte value, classes by the locale's
 * ctype), code points in UTF-8 (ranges by code point; classes by
 * iswctype; a range from or to a character past ASCII is glibc's "Invalid
 * collation character" in a locale without collation rules, such as
 * C.UTF-8), never the line end (a class such as
 * [:space:] holds it, no line does).  A negated bracket is the complement
 * over bytes, its members taken in both cases under
 * -i; in UTF-8 it, like ., is over a million characters and refused.
 */
#include "regex_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#ifdef __GLIBC__
#include <regex.h> /* glibc's, beside acgrep's regex.h */
#endif

#include "grow.h"

#define MAX_CODE_POINT 0x10FFFF

/* A bracket's members as it is read. */
struct members {
	uint8_t bytes[32];      /* a single-byte locale's */
	struct char_range *r;   /* UTF-8's: code point ranges */
	size_t n, cap;
	bool oom;
};

static void add_range(struct members *m, bool utf8, uint32_t lo, uint32_t hi)
{
	if (!utf8) {
		for (uint32_t b = lo; b <= hi && b < 256; b++)
			m->bytes[b / 8] |= (uint8_t)(1u << (b % 8));
		return;
	}
	struct char_range *nr = grow_array(m->r, &m->cap, m->n + 1, sizeof *nr, 16);
	if (!nr) {
		m->oom = true;
		return;
	}
	m->r = nr;
	nr[m->n++] = (struct char_range){ .lo = lo, .hi = hi };
}

/* The members of class wt: bytes by the locale's ctype, or the code
 * points iswctype accepts, as ranges. */
static void add_class(struct members *m, bool utf8, wctype_t wt)
{
	uint32_t limit = utf8 ? MAX_CODE_POINT : 255, run = UINT32_MAX;
	for (uint32_t c = 0; c <= limit + 1; c++) {
		wint_t wc = c > limit ? WEOF : utf8 ? (wint_t)c : btowc((int)c);
		bool in = wc != WEOF && !(c >= 0xD800 && c <= 0xDFFF) && iswctype(wc, wt);
		if (in && run == UINT32_MAX)
			run = c;
		if (!in && run != UINT32_MAX) {
			add_range(m, utf8, run, c - 1);
			run = UINT32_MAX;
		}
	}
}

static int range_order(const void *a, const void *b)
{
	const struct char_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The sorted, merged ranges m->r[0..n) less the line end `eol`, which no
 * line holds (grep's matchers never match it): a range holding it loses
 * it, cut in two where it is inside (m->r grows, or m->oom).  Returns
 * the new count. */
static size_t without_eol(struct members *m, size_t n, uint32_t eol)
{
	for (size_t i = 0; i < n; i++) {
		struct char_range *r = &m->r[i];
		if (eol < r->lo || eol > r->hi)
			continue;
		if (r->lo == r->hi) {
			memmove(r, r + 1, (n - i - 1) * sizeof *r);
			return n - 1;
		}
		if (eol == r->lo || eol == r->hi) {
			r->lo += eol == r->lo;
			r->hi -= eol == r->hi;
			return n;
		}
		struct char_range *nr = grow_array(m->r, &m->cap, n + 1, sizeof *nr, 16);
		if (!nr) {
			m->oom = true;
			return n;
		}
		m->r = nr;
		memmove(&nr[i + 2], &nr[i + 1], (n - i - 1) * sizeof *nr);
		nr[i + 1] = (struct char_range){ .lo = eol + 1, .hi = nr[i].hi };
		nr[i].hi = eol - 1;
		return n + 1;
	}
	return n;
}

/* The ranges of a bracket as the tree's, sorted and merged (UTF-8), or
 * from the byte set (its complement when negated). */
static uint32_t members_node(struct parser *ps, struct members *m, bool negate, size_t at)
{
	struct regex_tree *t = ps->t;
	bool utf8 = ps->o->utf8;
	unsigned eol = (unsigned char)ps->o->eol;
	size_t first = t->n_ranges;
	uint64_t count = 0, bytes = 0;
	struct char_range *runs = m->r;
	size_t n = m->n;
	if (!utf8) {
		uint8_t set[32];
		memcpy(set, m->bytes, sizeof set);
		for (unsigned b = 0; b < 256 && negate && ps->o->ignore_case; b++)
			if (m->bytes[b / 8] & (1u << (b % 8))) {
				unsigned lo = (unsigned)tolower((int)b), up = (unsigned)toupper((int)b);
				set[lo / 8] |= (uint8_t)(1u << (lo % 8));
				set[up / 8] |= (uint8_t)(1u << (up % 8));
			}
		n = 0;
		for (unsigned b = 0; b < 256; b++) {
			bool in = ((set[b / 8] >> (b % 8)) & 1) != negate && b != eol;
			if (in)
				add_range(m, true, b, b); /* collects byte runs as ranges */
		}
		runs = m->r;
		n = m->n;
	} else if (n) {
		qsort(runs, n, sizeof *runs, range_order);
		size_t k = 0;
		for (size_t i = 1; i < n; i++)
			if (runs[i].lo <= runs[k].hi + 1)
				runs[k].hi = runs[i].hi > runs[k].hi ? runs[i].hi : runs[k].hi;
			else
				runs[++k] = runs[i];
		n = without_eol(m, k + 1, eol);
		runs = m->r;
	}
	if (m->oom)
		return regex_oom(ps);
	struct char_range *nr = grow_array(t->ranges, &t->cap_ranges, first + n + 1, sizeof *nr, 64);
	if (!nr)
		return regex_oom(ps);
	t->ranges = nr;
	for (size_t i = 0; i < n; i++) {
		nr[first + i] = runs[i];
		for (uint32_t c = runs[i].lo;; c++) {
			char ignored[4];
			count++;
			bytes += regex_encode(c, utf8, ignored);
			if (c == runs[i].hi)
				break;
		}
	}
	t->n_ranges = first + n;
	return regex_node(ps, (struct node){
		.kind = NODE_CHARS, .a = (uint32_t)first, .b = (uint32_t)n, .count = count, .bytes = bytes,
	}, at);
}

uint32_t regex_any_byte(struct parser *ps, size_t at)
{
	struct members m = { .oom = false };
	uint32_t node = members_node(ps, &m, true, at);
	free(m.r);
	return node;
}

static uint32_t unmatched(struct parser *ps)
{
	snprintf(ps->err->text, sizeof ps->err->text, "Unmatched [, [^, [:, [., or [=");
	ps->err->syntax = true;
	return NO_NODE;
}

static uint32_t bracket_syntax(struct parser *ps, const char *msg)
{
	snprintf(ps->err->text, sizeof ps->err->text, "%s", msg);
	ps->err->syntax = true;
	return NO_NODE;
}

/* [:name:], [=c=] or [.c.] at ps->i: the class added, or the one
 * character in *c (true).  NO_NODE on error, else 0. */
static uint32_t bracket_item(struct parser *ps, struct members *m, size_t at, uint32_t *c,
			     bool *is_char)
{
	char kind = (char)ps->p[ps->i + 1];
	size_t open = ps->i + 2, close = open;
	while (close + 1 < ps->len && !(ps->p[close] == kind && ps->p[close + 1] == ']'))
		close++;
	if (close + 1 >= ps->len)
		return unmatched(ps);
	ps->i = close + 2;
	if (kind == ':') {
		char name[16];
		size_t n = close - open;
		wctype_t wt = 0;
		if (n < sizeof name) {
			memcpy(name, ps->p + open, n);
			name[n] = '\0';
			/* grep's DFA and glibc's regex alike: either case is a letter */
			bool cased = strcmp(name, "upper") == 0 || strcmp(name, "lower") == 0;
			wt = wctype(cased && ps->o->ignore_case ? "alpha" : name);
		}
		if (!wt)
			return bracket_syntax(ps, "Invalid character class name");
		add_class(m, ps->o->utf8, wt);
		*is_char = false;
		return 0;
	}
	/* glibc's without collation rules (C, C.UTF-8): one byte, else an error */
	if (close - open != 1)
		return bracket_syntax(ps, "Invalid collation character");
	struct parser one = *ps;
	one.i = open;
	one.len = close;
	if ((*c = regex_take_char(&one)) & RAW_BYTE)
		return regex_refuse(ps, at, "a collating element or equivalence class of a byte that "
				    "is not a character", REFUSE_CHARACTERS);
	*is_char = true;
	return 0;
}

/* Which item starts at ps->i: ':' ([:class:]), '=' ([=c=]), '.'
 * ([.c.]), or 0 for a character ('[' alone is one). */
static char item_at(const struct parser *ps)
{
	if (ps->p[ps->i] != '[' || ps->i + 1 >= ps->len)
		return 0;
	char kind = (char)ps->p[ps->i + 1];
	return kind == ':' || kind == '=' || kind == '.' ? kind : 0;
}

/* Whether glibc's regex refuses a range with a multibyte end here (a
 * locale without collation rules, such as C.UTF-8), asked of it. */
static bool multibyte_range_invalid(void)
{
#ifdef __GLIBC__
	regex_t re;
	int rc = regcomp(&re, "[\xc3\xa9-\xc3\xa9]", REG_EXTENDED | REG_NOSUB); /* [é-é] */
	return rc == 0 ? (regfree(&re), false) : rc == REG_ECOLLATE;
#else
	return false;
#endif
}

/* The range from lo (a character, or the item lo_item read it from) to
 * the member after the '-' at ps->i, added to m.  False, with *node
 * NO_NODE and the error or refusal set, when it is none. */
static bool bracket_range(struct parser *ps, struct members *m, size_t at, uint32_t lo, char lo_item,
			  uint32_t *node)
{
	ps->i++; /* the '-' */
	/* glibc: a range runs between characters or collating symbols
	 * ([.c.]), never from or to a class or an equivalence class */
	char hi_item = item_at(ps);
	bool is_char = true;
	uint32_t hi = 0;
	*node = NO_NODE;
	if (lo_item == ':' || lo_item == '=' || hi_item == ':' || hi_item == '=') {
		bracket_syntax(ps, "Invalid range end");
		return false;
	}
	if (!hi_item)
		hi = regex_take_char(ps);
	else if (bracket_item(ps, m, at, &hi, &is_char) == NO_NODE)
		return false;
	bool multibyte = (lo >= 0x80 && !(lo & RAW_BYTE)) || (hi >= 0x80 && !(hi & RAW_BYTE));
	if (ps->o->utf8 && multibyte && multibyte_range_invalid()) {
		bracket_syntax(ps, "Invalid collation character");
		return false;
	}
	if ((lo | hi) & RAW_BYTE) {
		regex_refuse(ps, at, "a range of bytes that are not characters", REFUSE_CHARACTERS);
		return false;
	}
	if (hi < lo) {
		bracket_syntax(ps, "Invalid range end");
		return false;
	}
	if (ps->o->utf8 && lo <= 0xDFFF && hi >= 0xD800) { /* no surrogates */
		if (lo < 0xD800)
			add_range(m, true, lo, 0xD7FF);
		if (hi > 0xDFFF)
			add_range(m, true, 0xE000, hi);
	} else {
		add_range(m, ps->o->utf8, lo, hi);
	}
	return true;
}

uint32_t regex_bracket(struct parser *ps)
{
	size_t at = ps->i++;
	bool negate = ps->i < ps->len && ps->p[ps->i] == '^';
	ps->i += negate;
	if (ps->i >= ps->len) /* glibc: nothing after [ or [^ */
		return bracket_syntax(ps, "Invalid regular expression");
	struct members m = { .oom = false };
	uint32_t node = NO_NODE;
	/* grep's DFA takes [:space:] for a misplaced class when it starts
	 * and ends with ':' and holds another character, but no range or
	 * [: :], [= =], [. .] item (its colon_warning_state) */
	bool colon_first = ps->p[ps->i] == ':', colon_last = false, other = false, ranged = false;
	for (bool first = true;; first = false) {
		if (ps->i >= ps->len) {
			node = unmatched(ps);
			break;
		}
		if (ps->p[ps->i] == ']' && !first) {
			ps->i++;
			if (colon_first && colon_last && other && !ranged)
				node = bracket_syntax(ps, "character class syntax is [[:space:]], "
						      "not [:space:]");
			else if (negate && ps->o->utf8) /* read whole first: grep's errors come first */
				node = regex_refuse(ps, at, "a negated bracket expression in a UTF-8 locale "
						    "(over a million characters)", REFUSE_BOUND);
			else
				node = members_node(ps, &m, negate, at);
			break;
		}
		uint32_t lo = 0;
		bool is_char = true;
		char lo_item = item_at(ps);
		if (lo_item) {
			if (bracket_item(ps, &m, at, &lo, &is_char) == NO_NODE)
				break;
		} else {
			lo = regex_take_char(ps);
			/* glibc: a '-' that starts no range is first or last */
			if (lo == '-' && !first && ps->i < ps->len && ps->p[ps->i] != ']') {
				node = bracket_syntax(ps, "Invalid range end");
				break;
			}
		}
		bool range = ps->i + 1 < ps->len && ps->p[ps->i] == '-' && ps->p[ps->i + 1] != ']';
		ranged |= range || lo_item;
		colon_last = !lo_item && lo == ':';
		other |= !lo_item && lo != ':';
		if (!range) {
			if (is_char && (lo & RAW_BYTE)) {
				node = regex_refuse(ps, at, "a byte that is not a character in a bracket "
						    "expression", REFUSE_CHARACTERS);
				break;
			}
			if (is_char)
				add_range(&m, ps->o->utf8, lo, lo);
			continue;
		}
		if (!bracket_range(ps, &m, at, lo, lo_item, &node))
			break;
	}
	free(m.r);
	return node;
}
