/* SPDX-License-Identifier: MIT */
/* opts_patterns.h - the pattern list of -e, -f and the PATTERNS operand,
 * and the files options name.
 *
 * Owns: splitting pattern text on newlines into a struct pattern_set as
 * GNU grep does, reading -f files straight into the set's storage, reading
 * whole files for other options (--exclude-from), and grep's diagnostics
 * for a file it cannot read.  Used only by opts.c.
 */
#ifndef ACGREP_OPTS_PATTERNS_H
#define ACGREP_OPTS_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/config.h"

/* A struct pattern_set being built: patterns back to back in `bytes`,
 * each followed by a NUL, and their end offsets.  Zeroed: empty. */
struct pat_builder {
	char *bytes;
	size_t len, cap;
	uint32_t *end;
	size_t n, ncap;
	bool holds_nul;
};

/* Adds the one pattern p[0..len) as it is, newlines and all.  False when
 * out of memory or past the 4 GiB the set can hold. */
bool opts_patterns_add_one(struct pat_builder *pb, const char *p, size_t len);

/* Adds the patterns of text[0..len), split on '\n' (an -e argument "a\n"
 * is two patterns, "a" and "", as in grep).  False when out of memory or
 * past the 4 GiB the set can hold. */
bool opts_patterns_add(struct pat_builder *pb, const char *text, size_t len);

/* Adds the lines of -f `path` ("-" is standard input): its final newline
 * only ends its last line, and an empty file adds nothing.  Returns 0, or
 * 2 after printing grep's message. */
int opts_patterns_read_file(struct pat_builder *pb, const char *path);

/* Moves the builder's patterns into *set; the builder is left empty. */
void opts_patterns_finish(struct pat_builder *pb, struct pattern_set *set);

/* Frees what the builder holds. */
void opts_patterns_free(struct pat_builder *pb);

/* Reads all of `path` ("-" is standard input) into *text, NUL-terminated
 * and malloc'd, its length in *len.  Returns 0, or 2 after printing grep's
 * message (*text is then NULL). */
int opts_read_file(const char *path, char **text, size_t *len);

/* -E/-G: every pattern of cfg's list parsed (grep's syntax errors,
 * acgrep's refusals, the expansion bound), before any input is read.
 * Returns -1 to go on, or 2 after the message. */
int opts_patterns_check_regex(const struct config *cfg);

#endif
