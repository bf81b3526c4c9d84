/* SPDX-License-Identifier: MIT */
/* opts_patterns.h - the pattern list of -e, -f and the PATTERNS operand,
 * and the files options name.
 *
 * Owns: splitting pattern text on newlines into a struct pattern_set as
 * GNU grep does, reading -f files straight into the set's storage, where
 * each pattern came from, reading whole files for other options
 * (--exclude-from), and grep's diagnostics for a file it cannot read and
 * for -E/-G patterns.  Used by opts.c and opts_tags.c.
 */
#ifndef ACGREP_OPTS_PATTERNS_H
#define ACGREP_OPTS_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/config.h"

/* Where patterns came from: those from index `first` on (up to the next
 * source's), from line `line` on of -f or --tagged-file `path`, or from
 * the command line (path NULL). */
struct pattern_source {
	size_t first;
	const char *path;
	uintmax_t line;
};

/* A struct pattern_set being built: patterns back to back in `bytes`,
 * each followed by a NUL, and their end offsets; where they came from, in
 * `src` (kept by opts_patterns_finish, for grep's messages).  Zeroed:
 * empty. */
struct pat_builder {
	char *bytes;
	size_t len, cap;
	uint32_t *end;
	size_t n, ncap;
	bool holds_nul;
	struct pattern_source *src;
	size_t n_src, cap_src;
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

/* Says that the patterns added next come from line `line` on of `path`
 * (-f or --tagged-file; a string that outlives the builder), or from the
 * command line (path NULL).  False when out of memory. */
bool opts_patterns_source(struct pat_builder *pb, const char *path, uintmax_t line);

/* Moves the builder's patterns into *set; the builder keeps only their
 * sources. */
void opts_patterns_finish(struct pat_builder *pb, struct pattern_set *set);

/* Frees what the builder holds. */
void opts_patterns_free(struct pat_builder *pb);

/* Reads all of `path` ("-" is standard input) into *text, NUL-terminated
 * and malloc'd, its length in *len.  Returns 0, or 2 after printing grep's
 * message (*text is then NULL). */
int opts_read_file(const char *path, char **text, size_t *len);

/* -E/-G: every pattern of cfg's list parsed (grep's syntax errors,
 * acgrep's refusals, the expansion bound), before any input is read.
 * Where patterns have syntax errors, grep's message for each distinct one
 * ("FILE:LINE: " before it for one from a file, by pb's sources), else
 * acgrep's refusal of the first it refuses.  Returns -1 to go on, or 2
 * after the messages. */
int opts_patterns_check_regex(const struct config *cfg, const struct pat_builder *pb);

#endif
