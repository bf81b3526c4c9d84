/* SPDX-License-Identifier: MIT */
/* regex_parse.h - what regex_parse.c and regex_bracket.c share: the
 * parser's state and the nodes they make.
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
	unsigned groups; /* groups closed so far (back-references may name them) */
	size_t anchors;  /* anchors (^ and $ as operators) parsed so far */
	size_t anchor_at; /* the byte of the last of them */
};

/* Appends node n (made for the construct at byte `at`), refusing it when
 * its expansion passes the bounds.  Returns its index or NO_NODE. */
uint32_t regex_node(struct parser *ps, struct node n, size_t at);

/* Sets the refusal of construct `what` at byte `at`; returns NO_NODE. */
uint32_t regex_refuse(struct parser *ps, size_t at, const char *what);

/* The node of the one character c (a range bound). */
uint32_t regex_char_node(struct parser *ps, uint32_t c, size_t at);

/* The character at ps->i as a range bound, advancing past it. */
uint32_t regex_take_char(struct parser *ps);

/* The bracket expression at ps->i ('['), advancing past it. */
uint32_t regex_bracket(struct parser *ps);

/* . in a single-byte locale (at byte `at`): any byte but the line end. */
uint32_t regex_any_byte(struct parser *ps, size_t at);

#endif
