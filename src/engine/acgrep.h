/* SPDX-License-Identifier: MIT */
/* acgrep.h - libacgrep: find many fixed strings in one pass over bytes.
 *
 * Owns: the public API and ABI of libacgrep, acgrep's Aho-Corasick engine
 * as a library (a wrapper over ac.h, which stays private).  The types are
 * opaque and no struct is laid out here, so the library can change its
 * insides without breaking programs built against an older header
 * (docs/library.md has the ABI rules).  Manual: man 3 libacgrep.
 *
 * Lifecycle: acgrep_new, acgrep_add (once per pattern), acgrep_compile,
 * then any number of acgrep_scan (or acgrep_count_matches) calls, and
 * acgrep_free.  Or acgrep_load of a compiled pattern set file, then the
 * scans and acgrep_free.
 *
 * Threads: a set being built (acgrep_add, acgrep_compile) belongs to one
 * thread at a time.  A compiled set is read-only: any number of threads
 * may scan it at once, without locking.  acgrep_scan never allocates
 * memory and makes no system call; it only calls the callback.
 *
 * Errors: functions that can fail return -1 (or NULL) and set errno.
 */
#ifndef ACGREP_H
#define ACGREP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A set of patterns: built, compiled, then scanned with. */
typedef struct acgrep_set acgrep_set;

/* acgrep_new flags */
#define ACGREP_FOLD_ASCII 1u /* A-Z and a-z match each other; other bytes as they are */

/* acgrep_scan modes */
#define ACGREP_OVERLAPPING 1      /* every match, overlapping ones too */
#define ACGREP_LEFTMOST_LONGEST 2 /* non-overlapping, as grep -o reports them */

/* Called by acgrep_scan for each match: the pattern with id `pattern_id`
 * occurs at buf[start..end) of the buffer scanned.  Returns 0 to go on, or
 * any other value to stop the scan, which then returns that value (use a
 * positive one to tell it from acgrep_scan's own -1). */
typedef int (*acgrep_match_fn)(void *ctx, size_t start, size_t end, uint32_t pattern_id);

/* Returns a new empty set, or NULL with errno ENOMEM (out of memory) or
 * EINVAL (a flag bit other than ACGREP_FOLD_ASCII). */
acgrep_set *acgrep_new(unsigned flags);

/* Adds the pattern bytes[0..len): any bytes, NUL included; len 0 is the
 * empty pattern, which matches (empty) at every position.  Its id is the
 * number of acgrep_add calls before it on this set that returned 0.
 * Patterns that are equal (under ACGREP_FOLD_ASCII, equal but for ASCII
 * case) match as one: matches report the smallest of their ids.
 * Returns 0, or -1 with errno EINVAL (set is NULL or compiled, or bytes is
 * NULL while len > 0) or ENOMEM (out of memory, or past the engine's
 * limits: about 2 GiB of patterns). */
int acgrep_add(acgrep_set *set, const void *bytes, size_t len);

/* Builds the automaton from the patterns added; a set with no pattern
 * compiles too, and matches nothing.  Compiling a compiled set does
 * nothing.  Returns 0, or -1 with errno EINVAL (set is NULL, or an earlier
 * call failed) or ENOMEM (out of memory; the set can then only be freed). */
int acgrep_compile(acgrep_set *set);

/* The number of patterns added (ids run from 0 to this minus 1). */
size_t acgrep_count(const acgrep_set *set);

/* Scans buf[0..len) and calls fn(ctx, start, end, pattern_id) for each
 * match, under `mode`:
 *   ACGREP_OVERLAPPING: every match of every pattern, in order of end,
 *     the longest first among those that end together;
 *   ACGREP_LEFTMOST_LONGEST: from the start of the buffer, the match that
 *     starts first and is the longest there, then the same from its end
 *     (from one byte further after an empty match), and so on.
 * Returns 0 when the scan reached the end of the buffer, fn's non-zero
 * return when fn stopped it, or -1 with errno EINVAL, before any call of
 * fn, when set is not compiled, mode is unknown, fn is NULL, or buf is
 * NULL while len > 0.  Never allocates; safe on one set from many threads. */
int acgrep_scan(const acgrep_set *set, const void *buf, size_t len, int mode,
		acgrep_match_fn fn, void *ctx);

/* Sets *count to the number of matches acgrep_scan would report over
 * buf[0..len) in `mode`, without calling anything for each (faster where
 * matches are many).  Returns 0, or -1 with errno EINVAL, *count
 * unchanged, when set is not compiled, mode is unknown, count is NULL, or
 * buf is NULL while len > 0.  A large set (65,536 automaton states and
 * more, about 20,000 words) over 64 KiB and more counts run by run with a
 * memo of repeated words: up to 1.5 MiB, allocated and freed within the
 * call (where that fails, the same count without it); otherwise never
 * allocates.  Safe on one set from many threads.  Since version 0.3 of the
 * library. */
int acgrep_count_matches(const acgrep_set *set, const void *buf, size_t len, int mode,
			 size_t *count);

/* Returns the compiled set held by image[0..size): the bytes of a file
 * written by `acgrep -F --save-compiled`, read into memory that the
 * caller keeps, unchanged and not written by anything else, until
 * acgrep_free (its tables are used where they are, not copied), and whose
 * start is 64-byte aligned (malloc's is not always: use aligned_alloc or
 * mmap).  The container, its checksum and the automaton are checked: a
 * damaged or forged image is refused, never scanned.  The set scans as
 * one acgrep_compile returned, with the case folding it was saved with;
 * its pattern ids are those of the patterns its automaton holds, which
 * are the file's list in order unless the list had patterns that acgrep
 * left out of the automaton (ones holding a NUL, without -a or -z).
 * What acgrep's search adds to the set (-w, -x, -i in a UTF-8 locale,
 * the pattern list, tags) is acgrep's, not applied here.  Returns NULL
 * with errno EINVAL (image is NULL, misaligned, not a compiled set this
 * library reads, or damaged) or ENOMEM. */
acgrep_set *acgrep_load(const void *image, size_t size);

/* Frees the set and everything it holds; NULL is fine.  No scan of the
 * set may be under way. */
void acgrep_free(acgrep_set *set);

/* The library's version, as "MAJOR.MINOR.PATCH" (that of acgrep itself). */
const char *acgrep_version(void);

#ifdef __cplusplus
}
#endif

#endif
