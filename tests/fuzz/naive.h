/* SPDX-License-Identifier: MIT */
/* naive.h - the fuzzers' reference for grep -F matching: brute force,
 * written to be obviously right rather than fast.
 *
 * Owns: which patterns match at each position of a text (found by
 * comparing bytes, ASCII-folded for -i; in UTF-8 character by character,
 * upper-cased with towupper as grep's regex matcher compares them), and
 * from that grep -F's rules
 * for one matcher_find call: the leftmost-longest match; -x, a match that
 * is a whole line; -w, the first match by start, longest first at that
 * start, whose neighbouring bytes are not ASCII word constituents.  It
 * answers "unknown" where the rule gets subtle enough that writing it
 * again here would only copy the engine's own code (-w in a UTF-8
 * locale; -w under grep's regex-matcher rules when searching from inside
 * a line; -i in UTF-8 with a pattern that is not valid UTF-8, whose
 * matches may end inside a character, or a text holding a character
 * grep's DFA folds otherwise than its regex matcher, U+1C80..U+1C88):
 * there the fuzzer compares scan strategies with each other.
 */
#ifndef ACGREP_FUZZ_NAIVE_H
#define ACGREP_FUZZ_NAIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/config.h"

/* The options a naive search honours: match_options' meaning (matcher.h). */
struct naive_options {
	bool fold;                /* -i: ASCII letters, or with utf8 towupper per character */
	bool word;                /* -w */
	bool line;                /* -x (wins over -w) */
	bool utf8;                /* -w's word constituents are iswalnum: unknown here;
				   -i folds characters (needs LC_CTYPE C.UTF-8) */
	char eol;
	bool nul_ends_lines;      /* -x: a NUL is also a line boundary */
	bool word_ignores_before_from;
	bool word_regex_rules;
};

/* Every match of a pattern set in one text: for text position a, the
 * distinct lengths of the patterns equal to text[a..a+len) (for -i in
 * UTF-8: of the text each pattern matches from a, a character boundary),
 * longest first, are lens[first[a] .. first[a + 1]). */
struct naive {
	struct naive_options opt;
	const uint8_t *text;
	size_t text_len;
	size_t *first;  /* text_len + 2 entries */
	uint32_t *lens;
	bool unknown;   /* the oracle declines every query (see above) */
	/* -i in UTF-8: 1 where a character starts (text_len + 1 entries).  A
	 * query from inside a character is declined: a set that needs no
	 * folding (ASCII, without i or s) is searched bytewise, where the
	 * empty pattern matches there, else matches start at the next
	 * character; neither shows in the output, which omits empty matches. */
	uint8_t *starts;
};

enum naive_answer { NAIVE_NO, NAIVE_YES, NAIVE_UNKNOWN };

/* Finds every match of patterns[0..n) in text[0..text_len).  Returns
 * false when out of memory.  The text must outlive *nv. */
bool naive_init(struct naive *nv, const struct pattern *patterns, size_t n, const uint8_t *text,
		size_t text_len, const struct naive_options *opt);
void naive_free(struct naive *nv);

/* matcher_find's contract (matcher.h) on the buffer text[base .. base +
 * len), positions relative to base: the match grep -F's rules choose
 * starting at or after `from`.  With exact = false only the line holding
 * *start is meaningful. */
enum naive_answer naive_find(const struct naive *nv, size_t base, size_t len, size_t from, bool exact,
			     size_t *start, size_t *end);

#endif
