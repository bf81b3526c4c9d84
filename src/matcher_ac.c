/* matcher_ac.c - grep -F semantics on top of the Aho-Corasick engine.
 *
 * Owns: turning a pattern set and -i/-w/-x into an automaton and answering
 * matcher_find with GNU grep's rules: leftmost-longest matches; -w accepts
 * the first match (by start, then longest first) whose neighbours are not
 * word constituents, falling back to shorter and later matches as grep -F
 * does; -x accepts only a match spanning a whole line.  In a UTF-8 locale,
 * -i folds non-ASCII letters by adding each pattern's case variants (the
 * same counterpart relation GNU grep uses), and word constituents are the
 * locale's alphanumerics and '_'.  Knows nothing of files or output.
 */
#include "matcher.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "ac.h"

/* Case variants past this many per pattern are not generated (see DESIGN.md). */
#define MAX_VARIANTS 4096

struct matcher_ac {
	struct matcher base;
	ac_automaton *ac;
	struct match_options opt;
	size_t max_len;
};

/* Lowercase letters whose uppercase lowercases to another letter: they fold
 * with that uppercase letter without being its towlower (Unicode data). */
static const wchar_t lonesome_lower[] = {
	0x00B5, 0x0131, 0x017F, 0x01C5, 0x01C8, 0x01CB, 0x01F2, 0x0345, 0x03C2, 0x03D0,
	0x03D1, 0x03D5, 0x03D6, 0x03F0, 0x03F1, 0x03F2, 0x03F5, 0x1E9B, 0x1FBE,
};

/* The characters other than c that -i lets c match; returns how many. */
static int case_counterparts(wint_t c, wchar_t out[32])
{
	int n = 0;
	wint_t uc = towupper(c), lc = towlower(uc);
	if (uc != c)
		out[n++] = (wchar_t)uc;
	if (lc != uc && lc != c && towupper(lc) == uc)
		out[n++] = (wchar_t)lc;
	for (size_t i = 0; i < sizeof lonesome_lower / sizeof *lonesome_lower; i++) {
		wint_t li = (wint_t)lonesome_lower[i];
		if (li != lc && li != uc && li != c && towupper(li) == uc)
			out[n++] = (wchar_t)li;
	}
	return n;
}

/* A character of a pattern that -i lets match other characters. */
struct variable_char {
	size_t offset;          /* in the pattern */
	unsigned char own_len;  /* its own UTF-8 length */
	unsigned char n;        /* alternatives, its own first */
	unsigned char len[8];
	char bytes[8][4];
};

/* Finds the characters of p[0..len) with non-ASCII case counterparts.
 * Returns how many were stored in vars (at most max). */
static size_t find_variable_chars(const char *p, size_t len, struct variable_char *vars, size_t max)
{
	size_t nv = 0;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t i = 0; i < len && nv < max;) {
		wchar_t wc;
		size_t cl = mbrtowc(&wc, p + i, len - i, &st);
		if (cl == (size_t)-1 || cl == (size_t)-2 || cl == 0) {
			memset(&st, 0, sizeof st);
			i++; /* an encoding error or NUL matches itself only */
			continue;
		}
		wchar_t others[32];
		int no = case_counterparts((wint_t)wc, others);
		struct variable_char *v = &vars[nv];
		v->offset = i;
		v->own_len = (unsigned char)cl;
		v->n = 1;
		v->len[0] = (unsigned char)cl;
		memcpy(v->bytes[0], p + i, cl);
		for (int j = 0; j < no && v->n < 8; j++) {
			mbstate_t ws;
			memset(&ws, 0, sizeof ws);
			char tmp[MB_LEN_MAX];
			size_t wl = wcrtomb(tmp, others[j], &ws);
			if (wl == (size_t)-1 || wl > 4 || (wl == 1 && cl == 1))
				continue; /* ASCII pairs are left to the automaton */
			memcpy(v->bytes[v->n], tmp, wl);
			v->len[v->n++] = (unsigned char)wl;
		}
		if (v->n > 1)
			nv++;
		i += cl;
	}
	return nv;
}

/* Adds pattern p with every UTF-8 case variant GNU grep -i would match,
 * enumerating the combinations like an odometer (MAX_VARIANTS at most). */
static int add_folded_utf8(ac_automaton *ac, const char *p, size_t len)
{
	struct variable_char vars[12];
	size_t nv = find_variable_chars(p, len, vars, sizeof vars / sizeof *vars);
	if (nv == 0)
		return ac_add(ac, p, len);
	char *out = malloc(len * 4 + 1);
	if (!out)
		return -1;
	unsigned char digit[12] = { 0 };
	int rc = 0;
	for (size_t made = 0; rc == 0 && made < MAX_VARIANTS; made++) {
		size_t o = 0, i = 0;
		for (size_t k = 0; k < nv; k++) {
			memcpy(out + o, p + i, vars[k].offset - i);
			o += vars[k].offset - i;
			memcpy(out + o, vars[k].bytes[digit[k]], vars[k].len[digit[k]]);
			o += vars[k].len[digit[k]];
			i = vars[k].offset + vars[k].own_len;
		}
		memcpy(out + o, p + i, len - i);
		rc = ac_add(ac, out, o + len - i);
		size_t k = 0; /* next combination */
		while (k < nv && ++digit[k] == vars[k].n)
			digit[k++] = 0;
		if (k == nv)
			break;
	}
	free(out);
	return rc;
}

static bool is_word_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_';
}

/* Is the character starting at buf[i] (i < len) a word constituent? */
static bool word_at(const char *buf, size_t len, size_t i, bool utf8)
{
	unsigned char c = (unsigned char)buf[i];
	if (c < 0x80 || !utf8)
		return is_word_byte(c);
	wchar_t wc;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = mbrtowc(&wc, buf + i, len - i, &st);
	return n <= MB_LEN_MAX && n > 0 && iswalnum((wint_t)wc);
}

/* Is the character ending just before buf[i] (i > 0) a word constituent? */
static bool word_before(const char *buf, size_t len, size_t i, bool utf8)
{
	unsigned char c = (unsigned char)buf[i - 1];
	if (c < 0x80 || !utf8)
		return is_word_byte(c);
	/* As grep: the character containing byte i-1, decoded from its lead
	 * byte (at most 3 bytes back), even when it extends past i. */
	size_t s = i - 1;
	while (s > 0 && i - 1 - s < 3 && ((unsigned char)buf[s] & 0xC0) == 0x80)
		s--;
	wchar_t wc;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = mbrtowc(&wc, buf + s, len - s, &st);
	return n <= MB_LEN_MAX && n > 0 && s + n >= i && iswalnum((wint_t)wc);
}

/* State of a -w or -x search over the overlapping matches. */
struct qualify {
	const struct matcher_ac *m;
	const char *buf;
	size_t len;
	size_t from;
	bool exact;
	bool found;
	size_t start, end, line_end;
	size_t shrink; /* see tried_by_grep */
};

static bool qualifies(const struct qualify *q, size_t s, size_t e)
{
	char eol = q->m->opt.eol;
	if (q->m->opt.line) {
		bool nul = q->m->opt.nul_ends_lines;
		return (s == 0 || q->buf[s - 1] == eol || (nul && q->buf[s - 1] == '\0')) &&
		       (e == q->len || q->buf[e] == eol || (nul && q->buf[e] == '\0'));
	}
	bool utf8 = q->m->opt.utf8;
	bool look_before = s > 0 && !(s == q->from && q->m->opt.word_ignores_before_from);
	return !(look_before && word_before(q->buf, q->len, s, utf8)) &&
	       !(e < q->len && word_at(q->buf, q->len, e, utf8));
}

/* Does a non-empty pattern match at s?  (Such a match ends by s +
 * max_len: the search looks no further.) */
static bool longer_match_at(const struct qualify *q, size_t s)
{
	ac_match lm;
	size_t limit = q->len - s > q->m->max_len ? s + q->m->max_len : q->len;
	return ac_find(q->m->ac, (const uint8_t *)q->buf, limit, s, AC_LEFTMOST_LONGEST, &lm) &&
	       lm.start == s && lm.end > s;
}

/* grep's regex matcher, at a start s whose longest match is not a whole
 * word, retries with the longest match at s at least one byte shorter.
 * Searching for -o or colour from inside a line (not its start), it counts
 * that limit from where the search began rather than from the line start
 * (re_match's size argument), so each retry also drops q->shrink bytes,
 * the distance from the line start to `from`.  Is the non-empty match
 * (s, e) one of the lengths those retries try? */
static bool tried_by_grep(const struct qualify *q, size_t s, size_t e)
{
	ac_match lm;
	size_t limit = q->len;
	while (ac_find(q->m->ac, (const uint8_t *)q->buf, limit, s, AC_LEFTMOST_LONGEST, &lm) &&
	       lm.start == s && lm.end > s) {
		if (lm.end <= e)
			return lm.end == e;
		if (lm.end - s <= 1 + q->shrink)
			return false;
		limit = lm.end - 1 - q->shrink;
	}
	return false;
}

static int qualify_cb(const ac_match *am, void *ctx)
{
	struct qualify *q = ctx;
	/* Later lines cannot hold a better match, nor can matches ending
	 * more than max_len past the best start (they start after it). */
	if (q->found && (am->end > q->line_end || am->end - q->start > q->m->max_len))
		return 1;
	if (!qualifies(q, am->start, am->end))
		return 0;
	if (am->start == am->end && q->m->opt.word_regex_rules && longer_match_at(q, am->start))
		return 0;
	if (am->end > am->start && q->shrink && !tried_by_grep(q, am->start, am->end))
		return 0;
	if (!q->found || am->start < q->start || (am->start == q->start && am->end > q->end)) {
		q->start = am->start;
		q->end = am->end;
		if (!q->found) {
			const char *nl = memchr(q->buf + am->end, q->m->opt.eol, q->len - am->end);
			q->line_end = nl ? (size_t)(nl - q->buf) : q->len;
		}
		q->found = true;
		if (!q->exact || q->m->opt.line)
			return 1; /* any qualifying match selects the line */
	}
	return 0;
}

static bool ac_matcher_find(const struct matcher *base, const char *buf, size_t len, size_t from,
			    bool exact, size_t *start, size_t *end)
{
	const struct matcher_ac *m = (const struct matcher_ac *)base;
	const uint8_t *text = (const uint8_t *)buf;
	if (m->opt.word || m->opt.line) {
		struct qualify q = { m, buf, len, from, exact, false, 0, 0, 0, 0 };
		if (exact && m->opt.word_regex_rules) { /* see tried_by_grep */
			size_t line_start = from;
			while (line_start > 0 && buf[line_start - 1] != m->opt.eol)
				line_start--;
			q.shrink = from - line_start;
		}
		ac_scan_overlapping(m->ac, text, len, from, qualify_cb, &q);
		*start = q.start;
		*end = q.end;
		return q.found;
	}
	ac_match am;
	if (!ac_find(m->ac, text, len, from, exact ? AC_LEFTMOST_LONGEST : AC_FIRST_END, &am))
		return false;
	*start = am.start;
	*end = am.end;
	return true;
}

/* Adapts ac_scan_leftmost's reports to a matcher_match_fn. */
struct each_adapter {
	matcher_match_fn cb;
	void *ctx;
};

static int each_adapter_cb(const ac_match *am, void *ctx)
{
	const struct each_adapter *a = ctx;
	return a->cb(am->start, am->end, a->ctx);
}

static int ac_matcher_each(const struct matcher *base, const char *buf, size_t len, size_t from,
			   matcher_match_fn cb, void *ctx)
{
	const struct matcher_ac *m = (const struct matcher_ac *)base;
	if (m->opt.word || m->opt.line) /* qualification may depend on `from` */
		return matcher_each_by_find(base, buf, len, from, cb, ctx);
	struct each_adapter a = { cb, ctx };
	return ac_scan_leftmost(m->ac, (const uint8_t *)buf, len, from, each_adapter_cb, &a);
}

static void ac_matcher_destroy(struct matcher *base)
{
	struct matcher_ac *m = (struct matcher_ac *)base;
	ac_free(m->ac);
	free(m);
}

static const struct matcher_ops ac_ops = { ac_matcher_find, ac_matcher_each, ac_matcher_destroy };

/* Adds the patterns of ps and takes them (ps is left empty): the engine
 * keeps the list itself, unless -i in UTF-8 needs each pattern's case
 * variants. */
static int add_patterns(ac_automaton *ac, struct pattern_set *ps, const struct match_options *opts)
{
	struct pattern_set own = *ps;
	*ps = (struct pattern_set){ NULL, NULL, 0, false };
	if (!(opts->ignore_case && opts->utf8))
		return ac_adopt_list(ac, own.storage, own.end, own.count);
	int rc = 0;
	for (size_t k = 0; k < own.count && rc == 0; k++) {
		struct pattern p = pattern_at(&own, k);
		rc = add_folded_utf8(ac, p.bytes, p.len);
	}
	free(own.storage);
	free(own.end);
	return rc;
}

struct matcher *matcher_ac_new(struct pattern_set *patterns, const struct match_options *opts,
			       const char **error)
{
	struct matcher_ac *m = calloc(1, sizeof *m);
	*error = "memory exhausted";
	if (!m || !(m->ac = ac_new(opts->ignore_case ? AC_FOLD_ASCII : 0))) {
		free(m);
		free(patterns->storage);
		free(patterns->end);
		*patterns = (struct pattern_set){ NULL, NULL, 0, false };
		return NULL;
	}
	m->base.ops = &ac_ops;
	m->opt = *opts;
	if (add_patterns(m->ac, patterns, opts) != 0)
		goto fail;
	ac_limit_simd(m->ac, (enum ac_simd)opts->simd);
	ac_set_threads(m->ac, opts->threads);
	if (ac_compile(m->ac, (enum ac_scan_path)opts->scan_path) != 0)
		goto fail;
	m->max_len = ac_max_pattern_len(m->ac);
	*error = NULL;
	return &m->base;
fail:
	ac_matcher_destroy(&m->base);
	return NULL;
}
