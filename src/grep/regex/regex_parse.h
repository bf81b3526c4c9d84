/* SPDX-License-Identifier: MIT */
/* regex_parse.h - what regex_parse.c, regex_tree.c and regex_bracket.c
 * share: the parser's state and the nodes they make.
 */
#ifndef ACGREP_REGEX_PARSE_H
#define ACGREP_REGEX_PARSE_H

#include "regex_internal.h"

/* No node: parsing stopped with the error set. */
#define NO_NODE UINT32_MAX

struct parser {
	const unsigned char *p;
	size_t len, i;
	const struct regex_options *o;
	struct regex_tree *t;
	struct regex_error *err;
	unsigned depth;  /* open groups */
	unsigned groups; /* groups opened so far: a group's number is its opening's */
	unsigned closed; /* bit n: group n (1-9) has closed, so \n may name it */
	size_t anchors;  /* anchors (^ and $ as operators) parsed so far */
	size_t anchor_at; /* the byte of the last of them */
	uint32_t *alts;   /* the alternatives of the alternations open, innermost last */
	size_t n_alts, cap_alts;
};

/* Appends node n (made for the construct at byte `at`), refusing it when
 * its expansion passes the bounds.  Returns its index or NO_NODE. */
uint32_t regex_node(struct parser *ps, struct node n, size_t at);

/* The concatenation a then b, and a repeated min to max times (sizes
 * summed over the counts), made for the construct at byte `at`. */
uint32_t regex_cat(struct parser *ps, uint32_t a, uint32_t b, size_t at);

/* An alternation as it is parsed: its alternatives are ps->alts[base ..],
 * then the words p[words_from .. words_to) not yet a node (words of
 * them), their sizes summed so far. */
struct alternation {
	size_t base;
	uint64_t count, bytes;
	uint32_t nesting;
	size_t words_from, words_to;
	uint32_t words, words_bytes;
};

/* Adds alternative a (after the | at byte `at`) to alternation x,
 * refusing it when the sum passes the bound; or the word p[from .. to),
 * a branch that is one run of plain bytes, with no node of its own
 * (consecutive words are one NODE_WORDS).  Then the alternation's one
 * node, its alternatives taken off ps->alts.  NO_NODE (false) on error. */
bool regex_alternative(struct parser *ps, struct alternation *x, uint32_t a, size_t at);
bool regex_alternative_word(struct parser *ps, struct alternation *x, size_t from, size_t to,
			    size_t at);
uint32_t regex_alt(struct parser *ps, struct alternation *x);
uint32_t regex_repeat(struct parser *ps, uint32_t a, uint32_t min, uint32_t max, size_t at);

/* Appends bytes[0..len) to the tree's text; returns their offset there,
 * or UINT32_MAX when out of memory (the error not set). */
uint32_t regex_add_text(struct parser *ps, const void *bytes, size_t len);

/* A branch as it is parsed: head, the concatenation of its parts so far
 * but the last, and run, the string that ends it (NO_NODE for none), which
 * the literal characters that follow lengthen in place: a run of literal
 * characters is one node, its bytes one copy. */
struct branch {
	uint32_t head, run;
};

/* Adds to the end of b: node a (a string the tree's last node: its text
 * joins b's run), or the string text[off .. off+len) (each byte a
 * character of its own when `bytewise`), made for the text at byte `at`.
 * Ends b's run: it joins the head.  Each returns false with the error
 * set (a refusal names the byte that takes the branch past the bound). */
bool regex_branch_add(struct parser *ps, struct branch *b, uint32_t a, size_t at);
bool regex_branch_string(struct parser *ps, struct branch *b, uint32_t off, size_t len, size_t at,
			 bool bytewise);
bool regex_branch_end(struct parser *ps, struct branch *b, size_t at);

/* Why acgrep refuses a construct: the reason its message gives. */
enum refusal {
	REFUSE_INFINITE,   /* the pattern matches an infinite set of strings */
	REFUSE_BOUND,      /* its expansion passes REGEX_MAX_LITERALS or REGEX_MAX_BYTES */
	REFUSE_NESTING,    /* nested past REGEX_MAX_NESTING */
	REFUSE_ANCHOR,     /* an anchor grep's own matchers disagree on */
	REFUSE_BACKREF,    /* a back-reference */
	REFUSE_CONTEXT,    /* a word or buffer anchor, a backslash class */
	REFUSE_UNDEFINED,  /* POSIX leaves its meaning undefined */
	REFUSE_CHARACTERS, /* a bracket member acgrep does not expand into characters */
	REFUSE_WRAPPED,    /* an ERE's unmatched ) that grep's -x or -w wrapping moves */
};

/* Sets the refusal of construct `what` at byte `at`, for the reason
 * `why`; returns NO_NODE. */
uint32_t regex_refuse(struct parser *ps, size_t at, const char *what, enum refusal why);

/* Sets the error "memory exhausted"; returns NO_NODE. */
uint32_t regex_oom(struct parser *ps);

/* The node of the one character c (a range bound): a string of its
 * bytes. */
uint32_t regex_char_node(struct parser *ps, uint32_t c, size_t at);

/* The character at ps->i as a range bound, advancing past it. */
uint32_t regex_take_char(struct parser *ps);

/* The bracket expression at ps->i ('['), advancing past it. */
uint32_t regex_bracket(struct parser *ps);

/* . in a single-byte locale (at byte `at`): any byte but the line end. */
uint32_t regex_any_byte(struct parser *ps, size_t at);

#endif
