/* SPDX-License-Identifier: MIT */
/* fold_utf8.h - GNU grep's -i relation in a UTF-8 locale, as a fold.
 *
 * grep -F -i in a UTF-8 locale (where its fixed-string matcher cannot fold)
 * lets text character d match pattern character c when towupper(d) ==
 * towupper(c): its regex matcher compares both sides upper-cased.  Its DFA,
 * which selects lines before the regex matcher is asked, uses
 * case_folded_counterparts instead, which leaves out a few characters
 * ("DFA-narrow" ones, such as U+1C80 CYRILLIC SMALL LETTER ROUNDED VE):
 * there d matches c when d == c, or towupper(d) == towupper(c) and d is not
 * DFA-narrow.  Both were checked over every code point of C.UTF-8.
 *
 * This module owns the characters: decoding as the C library's mbrtowc
 * does (a valid character of 1-6 bytes, else one byte that is a character
 * of its own), each character's canonical form (towupper, re-encoded; ASCII
 * stays as it is, the automaton folds ASCII), folding patterns and windows
 * of text (with a map from folded offsets back to the text's), character
 * boundaries, and comparing and searching under the DFA's relation.  It
 * knows nothing of automata, lines or options.  fold_utf8.c implements
 * the characters, patterns and the DFA's relation, fold_text.c the windows
 * of text, boundaries and scans; fold_internal.h is what they share.
 */
#ifndef ACGREP_FOLD_UTF8_H
#define ACGREP_FOLD_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fold_table;

/* The current locale's fold (it must be a UTF-8 locale), or NULL when out
 * of memory.  Read-only afterwards: any number of threads may use it. */
struct fold_table *fold_table_new(void);
void fold_table_free(struct fold_table *t);

/* Length (1-6) of the valid character at s[0..n) (n > 0), stored in *wc,
 * or 0 when s[0] starts none and is a character of its own. */
size_t fold_decode(const unsigned char *s, size_t n, uint32_t *wc);

/* What folding found out about a pattern. */
struct fold_facts {
	bool invalid;    /* not valid UTF-8 */
	bool narrow;     /* holds a DFA-narrow character */
	bool needs_fold; /* grep -F -i cannot search it with its fixed-string
			  * matcher: a byte that is no character, or a
			  * character with case counterparts of another length */
};

/* Room fold_pattern needs for a pattern of len bytes (a 2-byte character
 * may fold to 4). */
static inline size_t fold_room(size_t len)
{
	return 2 * len + 1;
}

/* Writes the canonical form of p[0..len) to out (fold_room(len) bytes):
 * each valid character as its towupper (ASCII as it is), each other byte
 * as it is.  Returns the folded length and fills *facts. */
size_t fold_pattern(const struct fold_table *t, const char *p, size_t len, char *out,
		    struct fold_facts *facts);

/* A character whose folded length differs from its own, at folded offset f
 * and text offset o, both relative to the window. */
struct fold_span {
	size_t f, o;
	unsigned char flen, olen;
};

/* A folded window of text. */
struct fold_window {
	const char *text;  /* the folded bytes */
	size_t len;
	size_t base;       /* offset of the window in the text */
	const struct fold_span *spans;
	size_t n_spans;
	bool narrow;       /* it holds a DFA-narrow character */
};

/* Folds buf[from..to) (both character boundaries of buf) into this
 * thread's scratch number `slot` (0 or 1), which stays valid until the
 * next fold into that slot on this thread.  Memory grows with to - from:
 * returns false, *w untouched, when it cannot. */
bool fold_window(const struct fold_table *t, const char *buf, size_t from, size_t to, int slot,
		 struct fold_window *w);

/* The text offset of folded offset f; inside a character whose folded
 * length differs, byte i of its fold maps to byte min(i, its length - 1)
 * of the character, as in glibc's regex matcher. */
size_t fold_to_text(const struct fold_window *w, size_t f);

/* The largest character boundary of w whose text offset is at most o
 * (o >= w->base). */
size_t fold_floor(const struct fold_window *w, size_t o);

/* The start of the character of s[0..len) that holds byte p (p itself at
 * len).  Folded windows split into the same characters as their text. */
size_t fold_char_start(const char *s, size_t len, size_t p);

/* The first character boundary of s[0..len) at or after p. */
size_t fold_char_ceil(const char *s, size_t len, size_t p);

static inline bool fold_is_boundary(const char *s, size_t len, size_t p)
{
	return p >= len || ((unsigned char)s[p] & 0xC0) != 0x80 || fold_char_start(s, len, p) == p;
}

/* The length of the run of ASCII bytes (below 0x80) at s[0..n). */
size_t fold_ascii_run(const char *s, size_t n);

/* The length of the run at s[0..n) that folding leaves alone as far as
 * patterns go: up to the first byte of 0x80 or more or, for patterns all
 * ASCII (ascii_set), the first lead byte of a character folding to ASCII
 * (ı, ſ): other characters fold to what no such pattern holds. */
size_t fold_skip(const struct fold_table *t, const char *s, size_t n, bool ascii_set);

/* Does s[0..n) hold a DFA-narrow character? */
bool fold_has_narrow(const struct fold_table *t, const char *s, size_t n);

/* Does text s[0..n) match pattern p[0..plen) whole under the DFA's
 * relation (character for character; a byte that is no character matches
 * only itself)? */
bool fold_dfa_equal(const struct fold_table *t, const char *p, size_t plen, const char *s,
		    size_t n);

/* The end of the first occurrence, starting on a character boundary at or
 * after `from` (itself a boundary), of the valid UTF-8 string p[0..plen)
 * in s[0..n) under the DFA's relation; SIZE_MAX when there is none.  With
 * anchored, only an occurrence starting at `from` counts; with to_end,
 * only one ending at n. */
size_t fold_dfa_search(const struct fold_table *t, const char *p, size_t plen, const char *s,
		       size_t n, size_t from, bool anchored, bool to_end);

/* Is s[0..n) valid UTF-8 (every byte part of a character)? */
bool fold_is_valid(const char *s, size_t n);

/* Frees this thread's scratch (threads that end free theirs). */
void fold_release_scratch(void);

#endif
