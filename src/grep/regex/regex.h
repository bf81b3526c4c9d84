/* SPDX-License-Identifier: MIT */
/* regex.h - grep -E and -G patterns that denote finite sets of strings.
 *
 * Owns: GNU grep 3.8's ERE and BRE syntax (BRE with GNU's \| \? \+),
 * its syntax errors, the constructs acgrep refuses (unbounded repetition,
 * back-references, word anchors, anchors under a repetition, anything
 * whose expansion passes the bound below), and the expansion of an
 * accepted pattern into literal strings, each with the anchors (^ line
 * start, $ line end) its alternative carries.  A pattern is parsed into
 * a tree (regex_parse.c) whose size is known before anything is
 * expanded (regex_expand.c).  For a list that matches nothing, the
 * literal GNU grep selects lines by all the same (regex_must.c).
 * Knows nothing of options beyond the syntax, the locale's encoding, -i
 * (a negated bracket excludes both cases), the line end, and -x and -w
 * (only for that literal: grep wraps the list by them).
 */
#ifndef ACGREP_REGEX_H
#define ACGREP_REGEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/config.h"

/* The bound on an expansion, over every pattern of a list together: past
 * either, the list is refused (status 2), never searched cut short. */
#define REGEX_MAX_LITERALS 1000000
#define REGEX_MAX_BYTES ((size_t)64 << 20)
/* Groups, and repetitions of a repetition, nest at most this deep: parsing
 * and expanding recurse once per level (grep says "stack overflow" for
 * some depth too; this one is refused by name). */
#define REGEX_MAX_NESTING 1000

enum regex_syntax { REGEX_BASIC /* -G */, REGEX_EXTENDED /* -E */ };

/* Anchors of one literal: it matches only at a line start, a line end. */
enum { REGEX_BOL = 1, REGEX_EOL = 2 };

struct regex_options {
	enum regex_syntax syntax;
	bool utf8;        /* brackets and . are over UTF-8 characters */
	bool ignore_case; /* a negated bracket excludes both cases of its members */
	char eol;         /* the line end, which . and negated brackets never match */
	bool line;        /* -x, and */
	bool word;        /* -w: grep wraps the pattern in a group for them */
};

/* Why a pattern was not expanded: a message to print after "PROG: ". */
struct regex_error {
	char text[512];
	bool syntax; /* grep rejects the pattern too (its message); else acgrep refuses it */
	size_t at;   /* a refusal's byte in the pattern */
};

struct regex_tree;

/* Parses pattern p[0..len) (a line of -e/-f: no newline).  Returns the
 * tree, or NULL with *err set (also for want of memory: "memory
 * exhausted").  *count and *bytes: the literals the expansion makes and
 * their bytes, at most the bounds (past them it is refused). */
struct regex_tree *regex_parse(const char *p, size_t len, const struct regex_options *o,
			       uint64_t *count, uint64_t *bytes, struct regex_error *err);

/* Calls emit for each literal of t's expansion: its bytes, length and
 * anchors (REGEX_BOL | REGEX_EOL).  A literal appears once per way the
 * pattern makes it (duplicates are possible).  Returns 0, emit's first
 * non-zero value, or -1 when out of memory. */
typedef int (*regex_emit_fn)(void *ctx, const char *bytes, size_t len, unsigned anchors);
int regex_expand(const struct regex_tree *t, regex_emit_fn emit, void *ctx);

void regex_tree_free(struct regex_tree *t);

/* Gives back the spare capacity of t's arrays (t is kept for later);
 * returns the bytes t holds. */
size_t regex_tree_trim(struct regex_tree *t);

/* Was t parsed from the pattern p[0..len)?  (t holds a copy of it.) */
bool regex_tree_is_of(const struct regex_tree *t, const char *p, size_t len);

/* Would GNU grep search this list (patterns joined by newlines) with its
 * fixed-string matcher, as if -F (grep's try_fgrep_pattern)?  Then the
 * literals are the patterns with their backslashes dropped. */
bool regex_list_is_fixed(const char *p, size_t len, enum regex_syntax syntax);

/* Parses every pattern of ps, and checks the bound over them all.
 * Returns 0, or -1 with *err set and *bad the pattern's index; a refusal's
 * text then names the syntax and the pattern (at most
 * REGEX_EXCERPT_BYTES of it, around the refused byte, "..." where cut). */
#define REGEX_EXCERPT_BYTES 60
int regex_list_check(const struct pattern_set *ps, const struct regex_options *o, size_t *bad,
		     struct regex_error *err);

/* GNU grep 3.8 selects lines for some lists that match nothing: its DFA
 * reads an inner ^ or $ as the empty string when it derives the one
 * string every match holds, and when that string is the whole of every
 * match (the list a fixed string, anchored at its ends where the list has
 * anchors), grep selects a line holding it without its DFA: '^$-$' and
 * '(^$)-$' select the line "-", as -x '^\(B\{0\}$\)x' selects "x".  The
 * matches -o and --color show (glibc's regex) are none.  Given list ps
 * (its expansion empty) and o (with -x, -w): sets *must to that string
 * and its anchors (bytes from malloc), or bytes NULL when grep selects
 * nothing.  Returns 0, or -1 when out of memory. */
struct regex_must {
	char *bytes;
	size_t len;
	unsigned anchors; /* REGEX_BOL | REGEX_EOL */
};
int regex_list_must(const struct pattern_set *ps, const struct regex_options *o,
		    struct regex_must *must);

/* Replaces the list ps (checked by regex_list_check) by the literals the
 * matcher searches: *fixed when grep would search it as -F (the
 * patterns, backslashes dropped, ids unchanged); else every pattern's
 * expansion, ps->given naming the pattern of each literal and
 * ps->anchors their anchors (NULL when none has any); for a list that
 * matches nothing, the string regex_list_must finds, with ps->unseen set.
 * Returns 0, or -1 when out of memory (ps is then empty). */
int regex_list_expand(struct pattern_set *ps, const struct regex_options *o, bool *fixed);

#endif
