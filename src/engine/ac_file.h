/* SPDX-License-Identifier: MIT */
/* ac_file.h - a compiled automaton as sections of a compiled pattern set
 * (secfile.h), and back without copying its tables.
 *
 * Owns: which sections hold the automaton and what makes them a valid
 * one.  Loading never copies a state table: the automaton's arrays point
 * into the image, the bytes that were checked.  Only the fixed prefilter
 * tables the scan path uses (at most 40 KiB) are copied into the
 * automaton.  Part of the engine's public interface (see ac.h).
 */
#ifndef ACGREP_AC_FILE_H
#define ACGREP_AC_FILE_H

#include "ac.h"
#include "secfile.h"

/* Adds compiled automaton ac's sections to w.  The tables are not copied:
 * ac must stay as it is until the last secfile_write.  Returns 0, or -1
 * when out of memory.  Precondition: ac compiled. */
int ac_save(const ac_automaton *ac, struct secfile_writer *w);

/* The automaton in f's sections, its tables pointing into f's image,
 * which must stay as it is until ac_free (memory nothing else writes:
 * bytes changed after the checks could send a scan anywhere).  The
 * sections are checked to form an automaton whose scans stay inside its
 * tables and inside the text, and report pattern ids below its pattern
 * count, end (every state stepped to lies at most one byte deeper),
 * whatever the bytes: a crafted file may find wrong matches, never crash
 * a scan.
 * Its vector kernels are chosen afresh: the widest this CPU runs, capped
 * at `cap` (as ac_limit_simd; the file's own scan path is kept, and a
 * Teddy path runs its scalar kernel on a CPU without byte shuffles).
 * Returns the automaton, or NULL with *why a static message ("memory
 * exhausted", or what is corrupt: "automaton: failure links").  Reads
 * every state once (a HASH set's, for its confirm table, three times more:
 * ac_confirm.h); O(1) memory beyond the automaton (that table holds at
 * most AC_CONFIRM_MAX_BYTES of pattern text). */
ac_automaton *ac_load(const struct secfile *f, enum simd_level cap, const char **why);

/* The number of patterns ac holds (its ids are below it), for a loader
 * to check its own tables of pattern ids against. */
size_t ac_pattern_count(const ac_automaton *ac);

#endif
