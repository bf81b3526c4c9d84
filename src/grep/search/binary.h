/* SPDX-License-Identifier: MIT */
/* binary.h - grep's binary-file rule for one input: what makes it binary,
 * what follows, what is reported.
 *
 * Owns: GNU grep 3.8's decisions.  An input turns binary at the first of
 * grep's buffers that holds a NUL byte (input.h says where those are:
 * input_window_has_nul, input_has_hole), unless -a or -z;
 * --binary-files=without-match then drops it, otherwise nothing more is
 * printed (counts go on), NUL ends lines, and a line selected from then
 * on makes it a "binary file matches".  In a UTF-8 locale (not under -a,
 * nor --json, whose records carry any bytes) a line to be printed that is
 * not valid UTF-8 is suppressed, and makes it one too.  Knows nothing of reading (input.c), of how lines are found
 * (search.c) or of the message's wording (run.c).
 */
#ifndef ACGREP_BINARY_H
#define ACGREP_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search_options.h"

struct binary_policy {
	enum binary_mode mode;   /* --binary-files */
	bool detect_nul;         /* a NUL byte can make the input binary */
	bool check_encoding;     /* lines to output must be valid in the locale */
	bool counting;           /* -c, --count-matches, --count-per-pattern: selection
				    goes on when binary */
	bool reports;            /* output is not quiet: "binary file matches" may follow */
	char eol;
	bool binary;             /* a NUL made the input binary */
	bool dropped;            /* ... and without-match dropped it */
	bool encoding_error;     /* a line was suppressed for its encoding */
	intmax_t selected_at_nul; /* lines selected before it turned binary */
};

/* What follows once an input turned binary. */
enum binary_next {
	BINARY_DROP,        /* without-match: the input is dropped, nothing selected */
	BINARY_STOP_QUIET,  /* nothing more is printed; the first selected line
			       decides (the search can stop there) */
	BINARY_COUNT_ON,    /* lines are counted on (-c), nothing printed */
};

/* Starts the rule for an input searched with opt; `quiet`: its lines are
 * not printed (-c, -l, -L, -q, or stdout is /dev/null). */
void binary_begin(struct binary_policy *b, const struct search_options *opt, bool quiet);

/* Whether NUL bytes still matter: the caller asks input.h where they are
 * and calls binary_nul_found at the first. */
static inline bool binary_watches_nul(const struct binary_policy *b)
{
	return b->detect_nul && !b->binary;
}

/* grep's buffer holding the input's next lines has a NUL (or the input
 * has a hole, or is the rest of a file found binary), after `selected`
 * selected lines: the input is binary from here on.  Returns what
 * follows. */
enum binary_next binary_nul_found(struct binary_policy *b, intmax_t selected);

/* Whether text[0..len) is valid in the locale's encoding; when not, the
 * input has had an encoding error (binary_file_matches).  The work of
 * binary_admits_line and binary_admits_match. */
bool binary_text_valid(struct binary_policy *b, const char *text, size_t len);

/* Whether the line text[0..len) (with its terminator, if it has one) may
 * be output: false when it is not valid in the locale's encoding (the
 * line without its terminator is asked, as grep asks it): it is then
 * suppressed, and the input becomes a binary file that matches. */
static inline bool binary_admits_line(struct binary_policy *b, const char *text, size_t len)
{
	return !b->check_encoding || binary_text_valid(b, text, len - (len > 0 && text[len - 1] == b->eol));
}

/* binary_admits_line for a match output on its own (-o): the match's bytes
 * are asked.  As in grep, a match refused ends its line's output. */
static inline bool binary_admits_match(struct binary_policy *b, const char *text, size_t len)
{
	return !b->check_encoding || binary_text_valid(b, text, len);
}

/* The selected lines to report when the search counted `selected`: none
 * when the input was dropped. */
static inline intmax_t binary_reported_count(const struct binary_policy *b, intmax_t selected)
{
	return b->dropped ? 0 : selected;
}

/* Whether "binary file matches" is reported for the input, `selected`
 * lines selected by its end.  Never under -I (a line with an encoding
 * error is then left out silently), nor when lines are not printed. */
bool binary_file_matches(const struct binary_policy *b, intmax_t selected);

#endif
