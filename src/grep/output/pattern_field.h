/* SPDX-License-Identifier: MIT */
/* pattern_field.h - the pattern field of an output line (--show-pattern,
 * --show-all-patterns): which patterns it names, and their names.
 *
 * Owns: the field's rules.  A line holding matches names the pattern of
 * the first match grep -o would print on it (leftmost-longest, exact
 * matching from the line's start; the first match at all when -o would
 * print none, as for a line the empty pattern selects); with
 * --show-all-patterns every distinct pattern among the matches -o would
 * print (with --overlapping, among every occurrence), in order of first
 * occurrence, told apart by the name shown (two
 * patterns of one tag are named once), joined by ','.  An -o match names
 * its own pattern; a line holding no match names none.  The names are
 * pattern_keys_name's (tag, text or 1-based number).  Knows nothing of
 * the line head around the field, colours or separators (print.c).
 */
#ifndef ACGREP_PATTERN_FIELD_H
#define ACGREP_PATTERN_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "print_options.h"

/* One printer's field writer (a thread's own). */
struct pattern_field {
	const struct pattern_keys *keys;
	const struct matcher *matcher;
	enum show_pattern what;
	bool all;            /* --show-all-patterns */
	bool overlapping;    /* ... with --overlapping: every occurrence */
	char eol;
	uint32_t *seen;      /* with `all`: per name, the stamp of the last
				line that named it */
	size_t n_seen;
	uint32_t stamp;      /* the line being written's */
};

/* Receives the field's bytes, n > 0 or not, in order. */
typedef void (*pattern_field_put)(void *ctx, const char *p, size_t n);

/* Sets up the field of opt's --show-pattern over matcher m and the run's
 * keys.  Returns 0, or -1 when out of memory (free it anyway). */
int pattern_field_init(struct pattern_field *pf, const struct print_options *opt,
		       const struct matcher *m, const struct pattern_keys *keys);
void pattern_field_free(struct pattern_field *pf);

/* Writes through put the names the field holds: those of the matches of
 * line[0..len) (its terminator included, if any) when line is not NULL,
 * else that of `pattern` alone (an -o match; MATCHER_NO_PATTERN: none).
 * Nothing is written for a field naming nothing. */
void pattern_field_write(struct pattern_field *pf, const char *line, size_t len,
			 uint32_t pattern, pattern_field_put put, void *ctx);

#endif
