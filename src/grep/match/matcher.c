/* SPDX-License-Identifier: MIT */
/* matcher.c - which of GNU grep -F's two matchers' rules a search follows.
 *
 * Owns: turning a matcher_spec into a matcher (matcher_build).  GNU grep
 * 3.8 searches fixed strings with its kwset matcher unless: in a single-
 * byte locale there is one distinct pattern and -w; in UTF-8 a pattern is
 * not valid UTF-8, or -i meets a character folded by its regex matcher.
 * The two differ in -w and -x -w details and in patterns holding NUL;
 * this file decides which applies and hands the engines the resulting
 * match_options.  Also the failure flag of matcher calls on a thread.
 */
#include "matcher.h"

#include "regex/regex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* Drops in place each pattern containing NUL where such a pattern can
 * never match, noting in ps->given the ids of those kept.  Returns false
 * when out of memory. */
static bool drop_nul_patterns(const struct matcher_spec *spec, bool kwset, struct pattern_set *ps)
{
	if (!ps->holds_nul)
		return true;
	/* With -z NUL ends records: grep's fixed-string matcher, kwset,
	 * finds such a pattern across records, which are then selected as
	 * one line (matcher.spans_eol); its regex matcher, and PCRE2, never
	 * find one. */
	if (spec->eol == '\0' && kwset && spec->engine != ENGINE_PCRE2)
		return true;
	/* With newline ending lines, a NUL ends lines in binary files: such a
	 * pattern matches only in files searched as text. */
	if (spec->eol != '\0' && spec->binary_text)
		return true;
	uint32_t *given = ps->given; /* an -E/-G list's: literal -> pattern */
	if (!(ps->given = malloc(ps->count * sizeof *ps->given))) {
		ps->given = given;
		return false;
	}
	size_t kept = 0, from = 0;
	uint32_t used = 0;
	for (size_t i = 0; i < ps->count; i++) {
		size_t len = ps->end[i] - from;
		const char *p = ps->storage + from;
		from = (size_t)ps->end[i] + 1; /* read before end[kept] is written */
		if (memchr(p, '\0', len))
			continue;
		memmove(ps->storage + used, p, len + 1); /* with its NUL */
		ps->given[kept] = given ? given[i] : (uint32_t)i;
		if (ps->anchors)
			ps->anchors[kept] = ps->anchors[i];
		ps->end[kept++] = used + (uint32_t)len;
		used += (uint32_t)len + 1;
	}
	free(given);
	ps->count = kept;
	ps->holds_nul = false;
	return true;
}

/* Does a UTF-8 pattern hold a character that -i folds to a character of
 * another length, or a multibyte character with case counterparts?  Then GNU
 * grep -F -i hands the search to its regex matcher. */
static bool needs_multibyte_fold(struct pattern p)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t i = 0; i < p.len;) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, p.bytes + i, p.len - i, &st);
		if (n == (size_t)-1 || n == (size_t)-2)
			return true;
		if (n == 0)
			n = 1;
		wint_t up = towupper((wint_t)wc), low = towlower((wint_t)wc);
		if ((n > 1 && (up != (wint_t)wc || low != (wint_t)wc)) || wc == L'i' || wc == L'I' ||
		    wc == L's' || wc == L'S')
			return true;
		i += n;
	}
	return false;
}

/* True when every pattern of ps is the same string (grep drops duplicates). */
static bool one_distinct_pattern(const struct pattern_set *ps)
{
	if (ps->count == 0)
		return false;
	struct pattern first = pattern_at(ps, 0);
	for (size_t i = 1; i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		if (p.len != first.len || memcmp(p.bytes, first.bytes, first.len) != 0)
			return false;
	}
	return true;
}

/* Does GNU grep search spec's options and the patterns ps with its kwset
 * matcher (see the head of this file)? */
static bool grep_uses_kwset(const struct matcher_spec *spec, const struct pattern_set *ps)
{
	if (!spec->utf8)
		return !(spec->word && one_distinct_pattern(ps));
	for (size_t i = 0; i < ps->count; i++) {
		mbstate_t st;
		memset(&st, 0, sizeof st);
		struct pattern p = pattern_at(ps, i);
		for (size_t k = 0; k < p.len;) {
			if ((unsigned char)p.bytes[k] < 0x80) {
				k++;
				continue;
			}
			size_t n = mbrlen(p.bytes + k, p.len - k, &st);
			if (n == (size_t)-1 || n == (size_t)-2)
				return false;
			k += n ? n : 1;
		}
		if (spec->ignore_case && needs_multibyte_fold(p))
			return false;
	}
	return true;
}

struct match_options matcher_options(const struct matcher_spec *spec, bool grep_kwset,
				     unsigned threads)
{
	/* without -w both matchers follow the same rules */
	bool kwset_rules = !spec->word || grep_kwset;
	bool word_ignores_before_from = spec->word && !spec->line && kwset_rules;
	return (struct match_options){
		.ignore_case = spec->ignore_case,
		.word = spec->word,
		.line = spec->line,
		.utf8 = spec->utf8,
		.eol = spec->eol,
		.scan_path = spec->scan_path,
		.word_ignores_before_from = word_ignores_before_from,
		.nul_ends_lines = !spec->binary_text && spec->eol != '\0',
		.simd = spec->simd,
		.word_regex_rules = spec->word && !spec->line && !word_ignores_before_from,
		.grep_kwset = grep_kwset,
		.threads = threads,
	};
}

struct matcher *matcher_build(const struct matcher_spec *spec, struct pattern_set *patterns,
			      unsigned threads, const char **error)
{
	struct pattern_set ps = *patterns;
	*patterns = (struct pattern_set){ .storage = NULL };
	/* -E/-G: grep's regex matcher, unless two or more distinct patterns have no operator */
	bool regex_rules = false, fixed = true;
	struct regex_options ro = {
		.syntax = spec->syntax == SYNTAX_BASIC ? REGEX_BASIC : REGEX_EXTENDED,
		.utf8 = spec->utf8, .ignore_case = spec->ignore_case, .eol = spec->eol,
		.line = spec->line, .word = spec->word,
	};
	int expanded = spec->syntax == SYNTAX_FIXED ? 0 : regex_list_expand(&ps, &ro, &fixed);
	regex_rules = !fixed;
	bool grep_kwset = !regex_rules && grep_uses_kwset(spec, &ps), unseen = ps.unseen;
	struct match_options mo = matcher_options(spec, grep_kwset, threads);
	*error = NULL;
	struct matcher *m = NULL;
	if (expanded != 0 || !drop_nul_patterns(spec, grep_kwset, &ps))
		*error = "memory exhausted";
	else if (spec->engine == ENGINE_PCRE2)
		m = matcher_pcre2_new(&ps, &mo, error);
	else
		m = matcher_ac_new(&ps, &mo, error);
	free(ps.storage); /* matcher_ac_new took it: nothing left */
	free(ps.end);
	free(ps.given);
	free(ps.anchors);
	if (!m && !*error)
		*error = "cannot compile the patterns";
	if (m) {
		m->match_takes_eol = matcher_takes_eol(&mo);
		m->matches_unseen = unseen;
	}
	return m;
}

/* Set by a matcher call that failed for want of memory on this thread. */
static _Thread_local bool call_failed;

void matcher_note_failure(void)
{
	call_failed = true;
}

bool matcher_take_failure(void)
{
	bool failed = call_failed;
	call_failed = false;
	return failed;
}
