/* SPDX-License-Identifier: MIT */
/* matcher_file.h - compiled pattern sets: a matcher written to a file
 * once, then loaded by any number of searches instead of compiling.
 *
 * Owns: what a compiled pattern set holds beyond the automaton (the
 * options it was built for, the pattern list as given and its tags, the
 * matcher's own tables: the ids of dropped patterns, -i's folding lists),
 * writing it (to a new file renamed over FILE, so that searches loading
 * the old one go on unharmed), and loading it into private memory and
 * checking it against a search's options.  The container and the
 * automaton's part are the engine's (secfile.h, ac_file.h).  Only the
 * Aho-Corasick engine has a compiled form.
 */
#ifndef ACGREP_MATCHER_FILE_H
#define ACGREP_MATCHER_FILE_H

#include <stddef.h>

#include "match/matcher.h"
#include "options/option_types.h"

/* Compiles `patterns` (read, not taken; at least one) for spec's
 * options, as matcher_build would with `threads`, and writes the
 * compiled set to `path`, with `tags` when tags->of is set.  Returns 0, or
 * -1 with why it could not, for "acgrep: PATH: WHY", in why[0..why_len)
 * ("No space left on device", "memory exhausted"). */
int matcher_save(const struct matcher_spec *spec, const struct pattern_set *patterns,
		 const struct pattern_tags *tags, unsigned threads, const char *path, char *why,
		 size_t why_len);

/* Reads the compiled set `path` and returns its matcher for a search
 * with spec's options, which must be the ones it was compiled with (-i,
 * -w, -x, -z, the locale's UTF-8 or not, --binary-files=text where a
 * pattern holds a NUL, the engine, a --scan-path given); *list is then a
 * view of its pattern list as given (the config's list's place: not from
 * malloc, valid until matcher_free), and *tags of its tags (the config's
 * tags' place, the same; tags->of NULL when it was saved without).  The file is
 * read once into private memory, where the checksum and the checks that
 * the tables are sound (secfile.h, ac_file.h) read it and the search
 * uses it: a corrupt file is refused, never crashes a search, and
 * whatever happens to the file afterwards (rewritten, truncated,
 * replaced), the search goes on with what was checked.  A file changed
 * while it is read is judged by the bytes read.  Returns NULL with why,
 * for "acgrep: PATH: WHY" ("not a compiled pattern set", "compiled with
 * -i; this search is without it", "corrupt compiled pattern set (checksum
 * mismatch)", "No such file or directory", ...). */
struct matcher *matcher_load(const struct matcher_spec *spec, const char *path,
			     struct pattern_set *list, struct pattern_tags *tags, char *why, size_t why_len);

/* The syntax (-F, -G or -E) of the patterns of m, a matcher that
 * matcher_load or matcher_load_image returned: a set searches as its
 * patterns were compiled. */
enum pattern_syntax matcher_file_syntax(const struct matcher *m);

/* matcher_load over the image p[0..size) of a compiled set in memory,
 * which must stay as it is until matcher_free (for the tests and the
 * fuzz target). */
struct matcher *matcher_load_image(const struct matcher_spec *spec, const void *p, size_t size,
				   struct pattern_set *list, struct pattern_tags *tags, char *why,
				   size_t why_len);

#endif
