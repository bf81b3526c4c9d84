/* SPDX-License-Identifier: MIT */
/* regex_internal.h - the parse tree regex_parse.c builds and
 * regex_expand.c expands.
 */
#ifndef ACGREP_REGEX_INTERNAL_H
#define ACGREP_REGEX_INTERNAL_H

#include "regex.h"

enum node_kind {
	NODE_EMPTY, /* the empty string */
	NODE_BOL,   /* ^: the empty string at a line start */
	NODE_EOL,   /* $: the empty string at a line end */
	NODE_CHARS, /* one of a set of characters: ranges[a .. a+b) */
	NODE_STRING, /* one literal string, text[a .. a+b): a run of literal characters */
	NODE_CAT,   /* a then b */
	NODE_ALT,   /* one of kids[a .. a+b), leftmost first */
	NODE_REP,   /* a, min to max times */
	NODE_WORDS, /* one of the words of text[a .. a+b), parted by word_op: an alternation's
		     * branches that are each one run of plain bytes (a list's words) */
};

/* A raw byte (an encoding error in a UTF-8 pattern) rather than a code
 * point, in a range's bounds. */
#define RAW_BYTE 0x80000000u

struct char_range {
	uint32_t lo, hi; /* code points in UTF-8, bytes otherwise; or RAW_BYTE | byte */
};

/* 24 bytes: a list of words joined by | is a node per word.  count and
 * bytes: the literals it expands to and their bytes, saturating at
 * UINT32_MAX (past the bounds, where a node is refused). */
struct node {
	uint8_t kind;     /* enum node_kind */
	uint16_t nesting; /* repetitions inside one another, down to here */
	uint32_t a;
	union {
		uint32_t b;
		uint32_t min; /* NODE_REP's, which has no b */
	};
	uint32_t max;
	uint32_t count, bytes;
};

struct regex_tree {
	struct node *nodes;
	size_t n, cap;
	struct char_range *ranges;
	size_t n_ranges, cap_ranges;
	/* The bytes of every NODE_STRING: the pattern itself, text[0 ..
	 * pattern_len), where a branch that is one run of plain bytes takes
	 * its string; then the others back to back. */
	char *text;
	size_t text_len, text_cap, pattern_len;
	uint32_t *kids; /* the alternatives of every NODE_ALT, back to back */
	size_t n_kids, cap_kids;
	uint32_t root;
	bool utf8;
	char word_op; /* what parts the words of a NODE_WORDS: '|' (ERE), '\\' (BRE's \|) */
};

/* The bytes of character c (a range bound) into out (4 bytes at most);
 * returns their number. */
size_t regex_encode(uint32_t c, bool utf8, char *out);

#endif
