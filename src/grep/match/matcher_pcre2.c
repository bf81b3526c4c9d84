/* SPDX-License-Identifier: MIT */
/* matcher_pcre2.c - the PCRE2 engine: a second, independent implementation
 * of matcher.h, used as a test oracle and benchmark baseline
 * (acgrep --engine=pcre2).
 *
 * Owns: turning a fixed-string pattern set into PCRE2 regexes (each pattern
 * escaped as a literal; alternatives ordered longest first, so PCRE2's
 * leftmost-first alternation yields grep -F's leftmost-longest match) and
 * running them.  Refuses to know about files, output, colours or the
 * Aho-Corasick engine: it shares nothing with matcher_ac.c but matcher.h.
 *
 * Options:
 *   -x  ^(?:alts)$, PCRE2_MULTILINE, newline convention = the eol byte
 *       (PCRE2_NEWLINE_LF or _NUL); with nul_ends_lines a NUL byte is a
 *       line boundary too.  -x overrides -w, as in grep.
 *   -w  C locale: (?<![A-Za-z0-9_])(?:alts)(?![A-Za-z0-9_]).  UTF-8 locale:
 *       (?:alts)(?C1); the callout applies grep's rule (the characters
 *       before and after must not be '_' or iswalnum(); invalid bytes are
 *       not word characters; a continuation byte belongs to the character
 *       grep's mb_goback finds), because PCRE2's UCP \w and glibc's iswalnum
 *       disagree on ~2300 code points.  A refused match makes PCRE2 try the
 *       next (shorter) alternative at the same start, then later starts:
 *       exactly grep -w's order.  Where grep uses its regex matcher
 *       (match_options.word_regex_rules), an empty match is refused where
 *       a non-empty pattern matches, word or not (nonempty_match_at).
 *   -i  PCRE2_CASELESS.  In a UTF-8 locale, patterns that are valid UTF-8 go
 *       to batches compiled with PCRE2_UTF|PCRE2_UCP|PCRE2_MATCH_INVALID_UTF
 *       (invalid text bytes just never match; no per-call UTF check), sorted
 *       by character count: one pattern character matches one text
 *       character, so more characters means a longer match in bytes.  Other
 *       patterns go to byte-mode batches that fold ASCII only and start with
 *       (?C2), refusing starts inside a valid character as grep -i does.
 *   Without -i everything is byte mode: grep -F matches bytes, even inside
 *   a character.
 * Patterns containing the eol byte cannot match and are dropped; the empty
 * pattern is an empty alternative, sorted last.
 *
 * Batching: at most matcher_pcre2_batch_limit alternatives (default 2000)
 * or 16 KiB of pattern bytes per regex; a batch PCRE2 refuses is split in
 * two until it compiles.  find() takes the best match over all batches
 * (minimum start, then maximum end).
 *
 * Known gaps vs GNU grep -F: -i folds by Unicode simple case folding, not
 * glibc's towupper/towlower (e.g. 'k' matches U+212A KELVIN SIGN here, not
 * in grep; U+0131 dotless i folds to i/I in grep, not here; U+1E9E/U+00DF
 * fold here only); -i with a non-UTF-8 pattern in a UTF-8 locale folds its
 * ASCII letters only; one pattern longer than ~30 KB exceeds PCRE2's
 * compiled-size limit (LINK_SIZE 2) and is refused with an error.  With
 * utf8, -w consults the process's LC_CTYPE: the caller must have called
 * setlocale, as grep does.
 */
#include "matcher.h"

#include <stddef.h>

/* Test hook: maximum alternatives per compiled regex; 0 means the default. */
size_t matcher_pcre2_batch_limit = 0;

#ifdef ACGREP_HAVE_PCRE2

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

enum { DEFAULT_BATCH_ALTS = 2000, BATCH_BYTES = 16 * 1024 };

static const char ERR_NOMEM[] = "memory exhausted";
static const char ERR_COMPILE[] = "PCRE2 failed to compile the patterns";
static const char ERR_TOO_LONG[] = "a pattern is too long for the PCRE2 engine";

/* Mutable per-matcher state; find() is const, so it lives behind a pointer. */
struct scratch {
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	pcre2_jit_stack *jstack;
	const unsigned char *buf; /* the buffer find() is searching (for the callout) */
	size_t len;
	bool any_word;            /* callout 1 accepts every match */
};

struct pcre2_matcher {
	struct matcher base;
	pcre2_code **codes; /* one compiled regex per batch */
	size_t n_codes;
	char eol;
	bool hide_before_from; /* grep's -w quirk: see match_options */
	bool empty_needs_no_match; /* match_options.word_regex_rules, with the callout */
	struct scratch *s;
};

/* One pattern kept for compilation, with its sort key. */
struct entry {
	const unsigned char *p;
	size_t len;
	size_t weight; /* characters (UTF batches) or bytes (byte batches) */
	bool utf;      /* goes to a UTF batch */
	size_t idx;    /* original order, the last tie-breaker */
};

/* Growable regex text. */
struct text {
	char *s;
	size_t len, cap;
	bool oom;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->oom)
		return;
	char *ns = grow_array(t->s, &t->cap, t->len + n, 1, 256);
	if (!ns) {
		t->oom = true;
		return;
	}
	t->s = ns;
	memcpy(t->s + t->len, s, n);
	t->len += n;
}

static void put_str(struct text *t, const char *s)
{
	put(t, s, strlen(s));
}

static bool is_ascii_alnum(unsigned c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* Decodes one strict UTF-8 character (RFC 3629: no overlongs, surrogates or
 * code points above U+10FFFF) from p[0..n).  Returns its length, 0 when
 * the bytes there are not a valid character. */
static size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	if (n == 0)
		return 0;
	unsigned c = p[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* Number of characters if p[0..n) is valid UTF-8, else SIZE_MAX. */
static size_t utf8_chars(const unsigned char *p, size_t n)
{
	size_t chars = 0;
	uint32_t cp;
	for (size_t i = 0; i < n; chars++) {
		size_t l = utf8_decode(p + i, n - i, &cp);
		if (l == 0)
			return SIZE_MAX;
		i += l;
	}
	return chars;
}

/* grep's wordchar_next in a UTF-8 locale: is the character at buf[pos] a
 * word constituent?  Invalid or truncated sequences are not. */
static bool word_at(const unsigned char *buf, size_t len, size_t pos)
{
	if (pos >= len)
		return false;
	uint32_t cp;
	if (utf8_decode(buf + pos, len - pos, &cp) == 0)
		return false;
	if (cp < 0x80)
		return cp == '_' || is_ascii_alnum(cp);
	return iswalnum((wint_t)cp) != 0;
}

/* The start of the character containing byte cur, as GNU grep's mb_goback
 * sees it: a continuation byte belongs to the valid character whose lead
 * byte is at most 3 bytes earlier and spans it, else it stands alone. */
static size_t char_start(const unsigned char *buf, size_t len, size_t cur)
{
	if (cur >= len || (buf[cur] & 0xc0) != 0x80)
		return cur;
	for (size_t i = 1; i <= 3 && i <= cur; i++) {
		if ((buf[cur - i] & 0xc0) != 0x80) {
			uint32_t cp;
			if (utf8_decode(buf + cur - i, len - (cur - i), &cp) > i)
				return cur - i;
			break;
		}
	}
	return cur;
}

/* grep's wordchar_prev in a UTF-8 locale: is the character containing the
 * byte before pos a word constituent? */
static bool word_before(const unsigned char *buf, size_t len, size_t pos)
{
	return pos > 0 && word_at(buf, len, char_start(buf, len, pos - 1));
}

/* Callout 1 (-w in a UTF-8 locale, after the alternation): reject the match
 * unless it is bounded by non-word characters; PCRE2 then backtracks to
 * shorter alternatives.  Callout 2 (-i in a UTF-8 locale, byte-mode batch,
 * before it): reject starts inside a valid character, as grep -i does. */
static int check_callout(pcre2_callout_block *cb, void *data)
{
	const struct scratch *s = data;
	if (cb->callout_number == 2)
		return char_start(s->buf, s->len, cb->current_position) != cb->current_position;
	if (s->any_word)
		return 0;
	if (word_before(s->buf, s->len, cb->start_match) ||
	    word_at(s->buf, s->len, cb->current_position))
		return 1;
	return 0;
}

/* Sort order: byte batches first, then longest first, then by bytes (so
 * duplicates are adjacent), then original order. */
static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->utf != y->utf)
		return x->utf ? 1 : -1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	int c = x->len ? memcmp(x->p, y->p, x->len) : 0;
	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Appends one pattern as a literal: ASCII letters and digits as themselves,
 * other ASCII bytes as \x{hh}; bytes >= 0x80 raw in UTF mode (they are
 * part of valid UTF-8 there) and as \x{hh} in byte mode. */
static void put_literal(struct text *t, const struct entry *e)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < e->len; i++) {
		unsigned c = e->p[i];
		if (is_ascii_alnum(c) || (c >= 0x80 && e->utf)) {
			char ch = (char)c;
			put(t, &ch, 1);
		} else {
			char esc[7] = { '\\', 'x', '{', hex[c >> 4], hex[c & 15], '}', 0 };
			put(t, esc, 6);
		}
	}
}

struct build {
	struct pcre2_matcher *m;
	const struct match_options *opts;
	pcre2_compile_context *cctx;
	struct entry *ents;
	struct text t;
	const char *error;
};

/* Compiles ents[lo..hi) (all in the same UTF/byte group) into one regex,
 * splitting the range in two while PCRE2 refuses it. */
static bool compile_range(struct build *b, size_t lo, size_t hi)
{
	const struct match_options *o = b->opts;
	bool utf = b->ents[lo].utf;
	bool word_lookaround = o->word && !o->line && !o->utf8;
	bool use_callout = o->word && !o->line && o->utf8;
	struct text *t = &b->t;

	t->len = 0;
	if (o->line) /* with nul_ends_lines a NUL ends a line too */
		put_str(t, o->nul_ends_lines ? "(?:^|(?<=\\x{00}))" : "^");
	else if (word_lookaround)
		put_str(t, "(?<![A-Za-z0-9_])");
	if (!utf && o->ignore_case && o->utf8 && !o->line)
		put_str(t, "(?C2)");
	put_str(t, "(?:");
	for (size_t i = lo; i < hi; i++) {
		if (i > lo)
			put_str(t, "|");
		put_literal(t, &b->ents[i]);
	}
	put_str(t, ")");
	if (o->line)
		put_str(t, o->nul_ends_lines ? "(?:$|(?=\\x{00}))" : "$");
	else if (word_lookaround)
		put_str(t, "(?![A-Za-z0-9_])");
	else if (use_callout)
		put_str(t, "(?C1)");
	if (t->oom) {
		b->error = ERR_NOMEM;
		return false;
	}

	uint32_t flags = 0;
	if (o->line)
		flags |= PCRE2_MULTILINE;
	if (o->ignore_case)
		flags |= PCRE2_CASELESS;
	if (utf)
		flags |= PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)t->s, t->len, flags, &errcode,
					 &erroff, b->cctx);
	if (!code) {
		if (errcode == PCRE2_ERROR_NOMEMORY || errcode == PCRE2_ERROR_HEAP_FAILED) {
			b->error = ERR_NOMEM;
			return false;
		}
		if (hi - lo < 2) {
			b->error = errcode == PCRE2_ERROR_PATTERN_TOO_LARGE ? ERR_TOO_LONG : ERR_COMPILE;
			return false;
		}
		size_t mid = lo + (hi - lo) / 2;
		return compile_range(b, lo, mid) && compile_range(b, mid, hi);
	}
	/* JIT is an optimisation: on failure pcre2_match() interprets. */
	(void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	b->m->codes[b->m->n_codes++] = code; /* room for one per pattern */
	return true;
}

static void pcre2_destroy(struct matcher *base)
{
	struct pcre2_matcher *m = (struct pcre2_matcher *)base;
	for (size_t i = 0; i < m->n_codes; i++)
		pcre2_code_free(m->codes[i]);
	free(m->codes);
	if (m->s) {
		pcre2_match_data_free(m->s->md);
		pcre2_match_context_free(m->s->mctx);
		pcre2_jit_stack_free(m->s->jstack);
		free(m->s);
	}
	free(m);
}

/* Does some non-empty pattern match at subject[at], word or not? */
static bool nonempty_match_at(const struct pcre2_matcher *m, const char *subject, size_t limit,
			      size_t at)
{
	struct scratch *s = m->s;
	bool found = false;
	s->any_word = true;
	for (size_t i = 0; i < m->n_codes && !found; i++) {
		/* alternatives are longest first: a non-empty one is tried before "" */
		int rc = pcre2_match(m->codes[i], (PCRE2_SPTR)subject, limit, at, PCRE2_ANCHORED,
				     s->md, s->mctx);
		if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
			rc = pcre2_match(m->codes[i], (PCRE2_SPTR)subject, limit, at,
					 PCRE2_ANCHORED | PCRE2_NO_JIT, s->md, s->mctx);
		found = rc >= 0 && pcre2_get_ovector_pointer(s->md)[1] > at;
	}
	s->any_word = false;
	return found;
}

/* Runs every batch from `from`; once a candidate is known, later batches
 * search only up to the end of its line (matches never cross eol, so a
 * truncated subject cannot invent or lose a match that starts at or before
 * the candidate). */
static bool find_from(const struct pcre2_matcher *m, const char *buf, size_t len, size_t from,
		      size_t *start, size_t *end)
{
	struct scratch *s = m->s;
	if (len == 0 || from > len)
		return false;
	/* With the -w quirk the subject starts at `from`, so neither the
	 * lookbehind nor the callout sees the character before it. */
	size_t skip = m->hide_before_from ? from : 0;
	const char *subject = buf + skip;
	s->buf = (const unsigned char *)subject;
	s->len = len - skip;

	size_t limit = len - skip, best_s = SIZE_MAX, best_e = 0;
	for (size_t i = 0; i < m->n_codes; i++) {
		int rc = pcre2_match(m->codes[i], (PCRE2_SPTR)subject, limit, from - skip, 0, s->md,
				     s->mctx);
		if (rc == PCRE2_ERROR_JIT_STACKLIMIT) /* retry interpreted */
			rc = pcre2_match(m->codes[i], (PCRE2_SPTR)subject, limit, from - skip,
					 PCRE2_NO_JIT, s->md, s->mctx);
		if (rc < 0) /* PCRE2_ERROR_NOMATCH; other errors cannot occur with
			       the limits set at construction */
			continue;
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
		size_t ms = ov[0] + skip, me = ov[1] + skip;
		/* An empty match after the final eol is not inside any line. */
		if (ms == len && buf[len - 1] == m->eol)
			continue;
		if (ms < best_s || (ms == best_s && me > best_e)) {
			best_s = ms;
			best_e = me;
			const char *nl = memchr(buf + me, m->eol, len - me);
			limit = (nl ? (size_t)(nl - buf) : len) - skip;
		}
	}
	if (best_s == SIZE_MAX)
		return false;
	*start = best_s;
	*end = best_e;
	return true;
}

/* Contract: see matcher_ops.find.  With match_options.word_regex_rules an
 * empty match is refused where a non-empty pattern matches, as grep's
 * regex matcher does. */
static bool pcre2_find(const struct matcher *base, const char *buf, size_t len,
		       size_t from, bool exact, struct matcher_hit *hit)
{
	const struct pcre2_matcher *m = (const struct pcre2_matcher *)base;
	(void)exact; /* always exact */
	hit->pattern = MATCHER_NO_PATTERN; /* the batches' regexes do not say */
	while (find_from(m, buf, len, from, &hit->start, &hit->end)) {
		size_t skip = m->hide_before_from ? from : 0;
		if (!m->empty_needs_no_match || hit->end > hit->start ||
		    !nonempty_match_at(m, buf + skip, len - skip, hit->start - skip))
			return true;
		from = hit->start + 1;
	}
	return false;
}

/* Which pattern matched is not known to this engine. */
static bool pcre2_identify(const struct matcher *base, const char *p, size_t len, uint32_t *id)
{
	(void)base, (void)p, (void)len, (void)id;
	return false;
}

static const struct matcher_ops pcre2_ops = {
	.find = pcre2_find,
	.each = matcher_each_by_find,
	.identify = pcre2_identify,
	.destroy = pcre2_destroy,
};

static struct matcher *fail(struct pcre2_matcher *m, struct build *b, const char *msg,
			    const char **error)
{
	*error = msg;
	free(b->ents);
	free(b->t.s);
	pcre2_compile_context_free(b->cctx);
	pcre2_destroy(&m->base);
	return NULL;
}

/* Makes m's scratch (match data and context, with the limits, the callout
 * and the JIT stack) and b's compile context.  False when out of memory. */
static bool make_contexts(struct pcre2_matcher *m, struct build *b)
{
	struct scratch *s = m->s = calloc(1, sizeof *m->s);
	if (!s)
		return false;
	s->md = pcre2_match_data_create(1, NULL);
	s->mctx = pcre2_match_context_create(NULL);
	s->jstack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
	b->cctx = pcre2_compile_context_create(NULL);
	if (!s->md || !s->mctx || !b->cctx)
		return false;
	if (s->jstack)
		pcre2_jit_stack_assign(s->mctx, NULL, s->jstack);
	pcre2_set_match_limit(s->mctx, UINT32_MAX);
	pcre2_set_depth_limit(s->mctx, UINT32_MAX);
	pcre2_set_callout(s->mctx, check_callout, s);
	pcre2_set_newline(b->cctx, b->opts->eol == '\0' ? PCRE2_NEWLINE_NUL : PCRE2_NEWLINE_LF);
	return true;
}

/* Fills b->ents with the patterns that can match, keyed and sorted, exact
 * duplicates dropped.  Returns how many, or SIZE_MAX when out of memory. */
static size_t collect_entries(struct build *b, const struct pattern_set *patterns)
{
	const struct match_options *opts = b->opts;
	size_t n = 0;
	b->ents = malloc((patterns->count ? patterns->count : 1) * sizeof *b->ents);
	if (!b->ents)
		return SIZE_MAX;
	for (size_t i = 0; i < patterns->count; i++) {
		struct pattern p = pattern_at(patterns, i);
		if (p.len && memchr(p.bytes, opts->eol, p.len))
			continue;
		struct entry *e = &b->ents[n++];
		*e = (struct entry){
			.p = (const unsigned char *)p.bytes, .len = p.len, .weight = p.len, .idx = i,
		};
		if (opts->ignore_case && opts->utf8) {
			size_t chars = utf8_chars(e->p, e->len);
			if (chars != SIZE_MAX) {
				e->utf = true;
				e->weight = chars;
			}
		}
	}
	qsort(b->ents, n, sizeof *b->ents, entry_cmp);
	size_t k = 0; /* drop exact duplicates, now adjacent */
	for (size_t i = 0; i < n; i++) {
		const struct entry *last = k ? &b->ents[k - 1] : NULL, *e = &b->ents[i];
		if (last && last->utf == e->utf && last->len == e->len &&
		    (e->len == 0 || !memcmp(last->p, e->p, e->len)))
			continue;
		b->ents[k++] = *e;
	}
	return k;
}

struct matcher *matcher_pcre2_new(const struct pattern_set *patterns,
				  const struct match_options *opts, const char **error)
{
	struct pcre2_matcher *m = calloc(1, sizeof *m);
	if (!m) {
		*error = ERR_NOMEM;
		return NULL;
	}
	m->base.ops = &pcre2_ops;
	m->base.longest_span = SIZE_MAX;
	m->eol = opts->eol;
	m->hide_before_from = opts->word_ignores_before_from && opts->word && !opts->line;
	m->empty_needs_no_match = opts->word_regex_rules && opts->word && !opts->line && opts->utf8;
	struct build b = { .m = m, .opts = opts };
	size_t n;
	if (!make_contexts(m, &b) || (n = collect_entries(&b, patterns)) == SIZE_MAX ||
	    !(m->codes = malloc((n ? n : 1) * sizeof *m->codes)))
		return fail(m, &b, ERR_NOMEM, error);

	/* Cut into batches: same group, bounded alternatives and bytes. */
	size_t max_alts = matcher_pcre2_batch_limit ? matcher_pcre2_batch_limit
						    : DEFAULT_BATCH_ALTS;
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo, bytes = 0;
		while (hi < n && hi - lo < max_alts && b.ents[hi].utf == b.ents[lo].utf &&
		       (hi == lo || bytes + b.ents[hi].len <= BATCH_BYTES))
			bytes += b.ents[hi++].len;
		if (!compile_range(&b, lo, hi))
			return fail(m, &b, b.error, error);
		lo = hi;
	}

	free(b.ents);
	free(b.t.s);
	pcre2_compile_context_free(b.cctx);
	/* Warm up each regex once so the interpreter's frame vector (kept in the
	 * match data) is allocated now rather than in find(). */
	static const char probe[] = "x";
	m->s->buf = (const unsigned char *)probe;
	m->s->len = 1;
	for (size_t i = 0; i < m->n_codes; i++)
		(void)pcre2_match(m->codes[i], (PCRE2_SPTR)probe, 1, 0, 0, m->s->md, m->s->mctx);
	return &m->base;
}

#else /* !ACGREP_HAVE_PCRE2 */

struct matcher *matcher_pcre2_new(const struct pattern_set *patterns,
				  const struct match_options *opts, const char **error)
{
	(void)patterns;
	(void)opts;
	*error = "acgrep was built without PCRE2; --engine=pcre2 is unavailable";
	return NULL;
}

#endif
