/* SPDX-License-Identifier: MIT */
/* matcher_ac.c - grep -F semantics on top of the Aho-Corasick engine.
 *
 * Owns: turning a pattern set and -i/-w/-x into an automaton and answering
 * matcher_find with GNU grep's rules: leftmost-longest matches; -w accepts
 * the first match (by start, then longest first) whose neighbours are not
 * word constituents, falling back to shorter and later matches as grep -F
 * does; -x accepts only a match spanning a whole line.  In a UTF-8 locale
 * word constituents are the locale's alphanumerics and '_', and -i folds
 * non-ASCII letters through matcher_fold.c, which hands this file folded
 * views of the text.  Knows nothing of files or output.
 */
#include "matcher_ac_internal.h"

#include "regex/regex.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <wchar.h>
#include <wctype.h>

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

/* State of a -w or -x search over the overlapping matches of a view.
 * Offsets are the buffer's unless said to be the view's. */
struct qualify {
	const struct matcher_ac *m;
	const struct view *v;
	const char *buf;
	size_t len;
	size_t from;
	bool exact;
	bool found;
	size_t start, end, line_end;
	uint32_t pattern; /* the engine's id of the best match */
	size_t vstart; /* the view offset of start */
	size_t shrink; /* see tried_by_grep */
	size_t chain_s; /* the view offset whose retries partial_visits went through */
};

/* Does a line start at buf[p] (p <= len)?  And end there? */
static bool line_starts(const struct matcher_ac *m, const char *buf, size_t p)
{
	return p == 0 || buf[p - 1] == m->opt.eol || (m->opt.nul_ends_lines && buf[p - 1] == '\0');
}

static bool line_ends(const struct matcher_ac *m, const char *buf, size_t len, size_t p)
{
	return p == len || buf[p] == m->opt.eol || (m->opt.nul_ends_lines && buf[p] == '\0');
}

/* With anchored patterns (-E/-G's ^ and $): may the occurrence buf[s, e)
 * of engine pattern *id count, by the anchors of the patterns the
 * automaton cannot tell from it?  *id becomes the first listed of those
 * whose anchors it satisfies. */
static bool anchors_allow(const struct matcher_ac *m, const char *buf, size_t len, size_t s,
			  size_t e, uint32_t *id)
{
	if (!m->anchor_first)
		return true;
	const uint32_t *first = m->anchor_first[*id];
	bool bol = line_starts(m, buf, s), eol = line_ends(m, buf, len, e);
	uint32_t best = first[0];
	if (bol && first[REGEX_BOL] < best)
		best = first[REGEX_BOL];
	if (eol && first[REGEX_EOL] < best)
		best = first[REGEX_EOL];
	if (bol && eol && first[REGEX_BOL | REGEX_EOL] < best)
		best = first[REGEX_BOL | REGEX_EOL];
	*id = best;
	return best != NO_ANCHORED;
}

/* Does a match buf[s, e) count under -x and -w? */
static bool word_line_ok(const struct qualify *q, size_t s, size_t e)
{
	if (q->m->opt.line)
		return line_starts(q->m, q->buf, s) && line_ends(q->m, q->buf, q->len, e);
	if (!q->m->opt.word)
		return true;
	bool utf8 = q->m->opt.utf8;
	bool look_before = s > 0 && !(s == q->from && q->m->opt.word_ignores_before_from);
	return !(look_before && word_before(q->buf, q->len, s, utf8)) &&
	       !(e < q->len && word_at(q->buf, q->len, e, utf8));
}

/* Does the occurrence buf[s, e) of engine pattern *id count under the
 * anchors, -x and -w?  *id as anchors_allow leaves it. */
static bool qualifies(const struct qualify *q, size_t s, size_t e, uint32_t *id)
{
	return anchors_allow(q->m, q->buf, q->len, s, e, id) && word_line_ok(q, s, e);
}

/* The longest non-empty match at view offset s (a character boundary)
 * that ends at or before view offset limit, its anchors satisfied: true,
 * its end in *e. */
static bool longest_at(const struct qualify *q, size_t s, size_t limit, size_t *e)
{
	ac_match lm;
	const struct view *v = q->v;
	for (;;) {
		if (!ac_find(q->m->ac, (const uint8_t *)v->text, limit, s, AC_LEFTMOST_LONGEST, &lm) ||
		    lm.start != s || lm.end == s)
			return false;
		uint32_t id = lm.pattern;
		if (anchors_allow(q->m, q->buf, q->len, view_to_buf(v, s), view_to_buf(v, lm.end), &id))
			break;
		limit = lm.end - 1;
	}
	*e = lm.end;
	return true;
}

/* With m->fold's partial patterns (fold_partials_setup): the longest
 * match at view offset s of one of them that ends by buffer offset cut,
 * inside the character the cut splits (its first bytes matched byte for
 * byte), its anchors satisfied: true, its buffer end in *e, its engine id
 * (as anchors_allow leaves it) in *id. */
static bool partial_at(const struct qualify *q, size_t s, size_t cut, size_t *e, uint32_t *id)
{
	const struct fold_state *f = q->m->fold;
	const struct view *v = q->v;
	const char *buf = q->buf;
	size_t sb = view_to_buf(v, s), p = cut;
	if (!f || !f->n_partial || cut <= sb || cut >= q->len)
		return false;
	while (p > sb && cut - p < 3 && ((unsigned char)buf[p] & 0xC0) == 0x80)
		p--;
	uint32_t wc;
	size_t vp = view_floor(v, p);
	if (p == cut || fold_decode((const unsigned char *)buf + p, q->len - p, &wc) <= cut - p ||
	    vp < s || view_to_buf(v, vp) != p)
		return false;
	bool found = false;
	for (size_t j = 0; j < f->n_partial; j++) {
		const struct fold_partial *fp = &f->partial[j];
		size_t end = p + fp->tail_len;
		uint32_t pid = fp->id;
		if (end > cut || fp->rest_len != vp - s || (found && end <= *e) ||
		    memcmp(v->text + s, f->partial_bytes + fp->rest, fp->rest_len) != 0 ||
		    memcmp(buf + p, f->partial_bytes + fp->tail, fp->tail_len) != 0 ||
		    !anchors_allow(q->m, buf, q->len, sb, end, &pid))
			continue;
		*e = end;
		*id = pid;
		found = true;
	}
	return found;
}

/* grep's regex matcher, at a start s whose longest match is not a whole
 * word, retries with the longest match at s at least one byte shorter:
 * re_match over the text cut there, where a character the cut splits is
 * bytes that are no character (partial_at).  Searching for -o or colour
 * from inside a line (not its start), it counts that limit from where the
 * search began rather than from the line start (re_match's size
 * argument), so each retry also drops q->shrink bytes, the distance from
 * the line start to `from`.  The length tried at view offset s after one
 * ending at buffer offset `end` (SIZE_MAX: before any, the longest):
 * true with its buffer end in *e; *partial whether it is partial_at's
 * (then *id is its engine id). */
static bool retry_next(const struct qualify *q, size_t s, size_t end, size_t *e, uint32_t *id,
		       bool *partial)
{
	const struct view *v = q->v;
	size_t sb = view_to_buf(v, s), limit = v->len, cut = SIZE_MAX, ve;
	if (end != SIZE_MAX) {
		if (end - sb <= 1 + q->shrink)
			return false;
		cut = end - 1 - q->shrink;
		limit = view_floor(v, cut);
	}
	bool normal = longest_at(q, s, limit, &ve);
	*partial = cut != SIZE_MAX && partial_at(q, s, cut, e, id) &&
		   !(normal && view_to_buf(v, ve) >= *e);
	if (!*partial && normal)
		*e = view_to_buf(v, ve);
	return *partial || normal;
}

/* Is the non-empty match (s, e) (view offsets) one of the lengths grep's
 * retries try (retry_next)? */
static bool tried_by_grep(const struct qualify *q, size_t s, size_t e)
{
	size_t eb = view_to_buf(q->v, e), end = SIZE_MAX, next;
	uint32_t id;
	bool partial;
	while (retry_next(q, s, end, &next, &id, &partial)) {
		if (next <= eb)
			return next == eb && !partial;
		end = next;
	}
	return false;
}

/* Makes buf[s, e) (view start vs), of engine pattern id, the best match
 * when it is better: leftmost, then longest.  Returns qualify_cb's
 * answer: whether the scan may stop. */
static int take_match(struct qualify *q, size_t vs, size_t s, size_t e, uint32_t id)
{
	if (q->found && (s > q->start || (s == q->start && e <= q->end)))
		return 0;
	q->start = s;
	q->end = e;
	q->pattern = id;
	q->vstart = vs;
	if (!q->found) {
		const char *nl = memchr(q->buf + e, q->m->opt.eol, q->len - e);
		q->line_end = nl ? (size_t)(nl - q->buf) : q->len;
	}
	q->found = true;
	/* any qualifying match selects the line */
	return !q->exact || q->m->opt.line;
}

/* The partial patterns' matches that grep's retries at view offset vs
 * try (the automaton reports the others), each taken when it counts:
 * qualify_cb's answer. */
static int partial_visits(struct qualify *q, size_t vs)
{
	size_t s = view_to_buf(q->v, vs), end = SIZE_MAX, next;
	uint32_t id;
	bool partial;
	q->chain_s = vs;
	while (retry_next(q, vs, end, &next, &id, &partial)) {
		int rc = partial && word_line_ok(q, s, next) ? take_match(q, vs, s, next, id) : 0;
		if (rc != 0)
			return rc;
		end = next;
	}
	return 0;
}

static int qualify_cb(const ac_match *am, void *ctx)
{
	struct qualify *q = ctx;
	const struct view *v = q->v;
	if (am->start >= v->own || !view_boundary(v, am->start))
		return 0;
	size_t s = view_to_buf(v, am->start), e = view_to_buf(v, am->end);
	/* an empty match at the end of a window of whole lines that the
	 * buffer goes on after is at the next line's start: the next window's
	 * (here the matches after it, which grep's retries weigh, are out of
	 * sight) */
	if (am->start == v->len && s < q->len)
		return 0;
	/* Later lines cannot hold a better match, nor can matches ending
	 * more than max_len past the best start (they start after it). */
	if (q->found && (e > q->line_end || am->end - q->vstart > q->m->max_len))
		return 1;
	/* nor can one that would not replace the best (its checks, grep's
	 * retries above all, cost time) */
	if (q->found && (s > q->start || (s == q->start && e <= q->end)))
		return 0;
	const struct fold_state *f = q->m->fold;
	int rc;
	if (f && f->n_partial && am->start != q->chain_s && (rc = partial_visits(q, am->start)))
		return rc;
	uint32_t id = am->pattern;
	if (!qualifies(q, s, e, &id))
		return 0;
	/* a non-empty match at s ends by s + max_len: look no further */
	size_t ignored, reach = v->len - am->start > q->m->max_len ? am->start + q->m->max_len : v->len;
	/* an empty match counts where grep's regex matcher tries it: at a
	 * start whose longest match it is; in a single-byte locale grep's DFA,
	 * which selects lines where no -o or colour asks for the matches,
	 * takes any */
	if (s == e && q->m->opt.word_regex_rules && (q->exact || q->m->opt.utf8) &&
	    longest_at(q, am->start, reach, &ignored))
		return 0;
	/* a non-empty match counts where one of grep's retries finds it: any
	 * does from the line start, except one ending inside a character of
	 * the text (an invalid pattern's lead byte against a folded
	 * character), which only the first, uncut try sees */
	if (e > s && (q->shrink || !view_boundary(v, am->end)) && !tried_by_grep(q, am->start, am->end))
		return 0;
	return take_match(q, am->start, s, e, id);
}

bool ac_occurrence_qualifies(const struct matcher_ac *m, const char *buf, size_t len, size_t s,
			     size_t e, uint32_t *id)
{
	/* no `from`: every match is judged with the character before it */
	struct qualify q = { .m = m, .buf = buf, .len = len, .from = SIZE_MAX };
	return qualifies(&q, s, e, id);
}

/* The start of the line holding buf[p]. */
static size_t line_start_of(const char *buf, size_t p, char eol)
{
	const char *nl = p ? memrchr(buf, eol, p) : NULL;
	return nl ? (size_t)(nl - buf) + 1 : 0;
}

/* ac_find_in_view, given the start of the line holding `from` (SIZE_MAX:
 * not known; found here). */
static bool find_in_view(const struct matcher_ac *m, const struct view *v, const char *buf,
			 size_t len, size_t from, size_t vfrom, bool exact, size_t line_start,
			 struct matcher_hit *hit)
{
	const uint8_t *text = (const uint8_t *)v->text;
	if (m->opt.word || m->opt.line || m->anchor_first) {
		struct qualify q = {
			.m = m, .v = v, .buf = buf, .len = len, .from = from, .exact = exact,
			.chain_s = SIZE_MAX,
		};
		if (exact && m->opt.word_regex_rules) { /* see tried_by_grep */
			if (line_start == SIZE_MAX)
				line_start = line_start_of(buf, from, m->opt.eol);
			q.shrink = from - line_start;
		}
		ac_scan_overlapping(m->ac, text, v->len, vfrom, qualify_cb, &q);
		*hit = (struct matcher_hit){ .start = q.start, .end = q.end, .pattern = q.pattern };
		return q.found;
	}
	/* A cut window needs the leftmost match to know whose it is, and a
	 * filtered view the leftmost starting on a character boundary. */
	ac_match am;
	bool ll = exact || v->own != SIZE_MAX || v->filter;
	do {
		if (!ac_find(m->ac, text, v->len, vfrom, ll ? AC_LEFTMOST_LONGEST : AC_FIRST_END, &am) ||
		    am.start >= v->own)
			return false;
		vfrom = am.start + 1;
	} while (!view_boundary(v, am.start));
	*hit = (struct matcher_hit){
		.start = view_to_buf(v, am.start), .end = view_to_buf(v, am.end), .pattern = am.pattern,
	};
	return true;
}

bool ac_find_in_view(const struct matcher_ac *m, const struct view *v, const char *buf, size_t len,
		     size_t from, size_t vfrom, bool exact, struct matcher_hit *hit)
{
	return find_in_view(m, v, buf, len, from, vfrom, exact, SIZE_MAX, hit);
}

static bool ac_matcher_find(const struct matcher *base, const char *buf, size_t len, size_t from,
			    bool exact, struct matcher_hit *hit)
{
	const struct matcher_ac *m = (const struct matcher_ac *)base;
	struct view v = { .text = buf, .len = len, .own = SIZE_MAX };
	if (!(m->fold ? fold_find(m, buf, len, from, exact, hit)
		      : ac_find_in_view(m, &v, buf, len, from, from, exact, hit)))
		return false;
	hit->pattern = ac_given_id(m, hit->pattern);
	return true;
}

static bool ac_matcher_identify(const struct matcher *base, const char *p, size_t len, uint32_t *id)
{
	const struct matcher_ac *m = (const struct matcher_ac *)base;
	if (!(m->fold ? fold_identify(m, p, len, id) : ac_pattern_id(m->ac, p, len, id)))
		return false;
	*id = ac_given_id(m, *id);
	return true;
}

/* Adapts ac_scan_leftmost's reports to a matcher_match_fn. */
struct each_adapter {
	const struct matcher_ac *m;
	matcher_match_fn cb;
	void *ctx;
};

static int each_adapter_cb(const ac_match *am, void *ctx)
{
	const struct each_adapter *a = ctx;
	struct matcher_hit hit = {
		.start = am->start, .end = am->end, .pattern = ac_given_id(a->m, am->pattern),
	};
	return a->cb(&hit, a->ctx);
}

/* matcher_each_by_find for -w under grep's regex rules (no folding),
 * keeping the start of the line that holds `from` as it advances, so that
 * -o over a line of n matches takes n steps, not the n^2 of finding that
 * start afresh for each match (tried_by_grep's shrink). */
static int each_word(const struct matcher_ac *m, const char *buf, size_t len, size_t from,
		     matcher_match_fn cb, void *ctx)
{
	struct view v = { .text = buf, .len = len, .own = SIZE_MAX };
	char eol = m->opt.eol;
	size_t ls = line_start_of(buf, from, eol), seen = from;
	struct matcher_hit hit;
	int rc;
	while (from <= len && find_in_view(m, &v, buf, len, from, from, true, ls, &hit)) {
		hit.pattern = ac_given_id(m, hit.pattern);
		if ((rc = cb(&hit, ctx)) != 0)
			return rc;
		from = hit.end > hit.start ? hit.end : hit.end + 1;
		if (from <= len && from > seen) { /* the last eol before from, if past ls */
			const char *nl = memrchr(buf + seen, eol, from - seen);
			ls = nl ? (size_t)(nl - buf) + 1 : ls;
			seen = from;
		}
	}
	return 0;
}

static int ac_matcher_each(const struct matcher *base, const char *buf, size_t len, size_t from,
			   matcher_match_fn cb, void *ctx)
{
	const struct matcher_ac *m = (const struct matcher_ac *)base;
	if (m->opt.word && m->opt.word_regex_rules && !m->opt.line && !m->fold)
		return each_word(m, buf, len, from, cb, ctx);
	/* qualification may depend on `from` */
	if (m->opt.word || m->opt.line || m->fold || m->anchor_first)
		return matcher_each_by_find(base, buf, len, from, cb, ctx);
	struct each_adapter a = { .m = m, .cb = cb, .ctx = ctx };
	return ac_scan_leftmost(m->ac, (const uint8_t *)buf, len, from, each_adapter_cb, &a);
}

static intmax_t ac_matcher_count_each(const struct matcher *base, const char *buf, size_t len,
				     size_t from, struct matcher_memo **slot)
{
	const struct matcher_ac *m = (const struct matcher_ac *)base;
	if (m->opt.word || m->opt.line || m->anchor_first || /* as ac_matcher_each */
	    (m->fold && !fold_counts_as_is(m, buf + from, len - from)))
		return -1;
	if (slot && from == 0)
		return (intmax_t)matcher_memo_count(m->ac, (const uint8_t *)buf, len, slot);
	return (intmax_t)ac_count_leftmost(m->ac, (const uint8_t *)buf, len, from);
}

void matcher_image_release(struct matcher_image *img)
{
	if (img && img->mapped)
		munmap((void *)(uintptr_t)img->base, img->mapped);
	free(img);
}

static void ac_matcher_destroy(struct matcher *base)
{
	struct matcher_ac *m = (struct matcher_ac *)base;
	ac_free(m->ac);
	fold_state_free(m->fold);
	free(m->anchor_first);
	if (m->image)
		matcher_image_release(m->image);
	else
		free(m->given);
	free(m);
}

const struct matcher_ops matcher_ac_ops = {
	.find = ac_matcher_find,
	.each = ac_matcher_each,
	.count_each = ac_matcher_count_each,
	.each_overlapping = ac_each_overlapping,
	.identify = ac_matcher_identify,
	.destroy = ac_matcher_destroy,
};

void matcher_ac_settle(struct matcher_ac *m, bool holds_nul)
{
	m->max_len = ac_max_pattern_len(m->ac);
	/* a folded character is at least one byte, the text's at most four */
	m->base.longest_span = m->fold ? 4 * m->max_len : m->max_len;
	m->base.spans_eol = m->opt.eol == '\0' && holds_nul;
}

/* m->anchor_first from the list's anchors (pattern_set.anchors) and
 * its texts (a copy, the engine holding the list): each pattern's kind
 * of anchors noted on the engine id its text reports.  Returns 0, or -1
 * when out of memory. */
static int anchors_setup(struct matcher_ac *m, const struct pattern_set *texts,
			 const uint8_t *anchors)
{
	m->anchor_first = malloc((texts->count ? texts->count : 1) * sizeof *m->anchor_first);
	if (!m->anchor_first)
		return -1;
	for (size_t i = 0; i < texts->count; i++)
		for (int k = 0; k < 4; k++)
			m->anchor_first[i][k] = NO_ANCHORED;
	for (size_t i = 0; i < texts->count; i++) {
		struct pattern p = pattern_at(texts, i);
		uint32_t rep;
		if (!(m->fold ? fold_identify(m, p.bytes, p.len, &rep)
			      : ac_pattern_id(m->ac, p.bytes, p.len, &rep)))
			continue;
		uint32_t *first = &m->anchor_first[rep][anchors[i] & 3];
		if ((uint32_t)i < *first)
			*first = (uint32_t)i;
	}
	return 0;
}

/* A copy of ps's texts (for anchors_setup), or an empty set when
 * there are no anchors.  False when out of memory. */
static bool copy_texts(const struct pattern_set *ps, struct pattern_set *copy)
{
	*copy = (struct pattern_set){ .count = ps->anchors ? ps->count : 0 };
	if (!copy->count)
		return true;
	size_t bytes = (size_t)ps->end[ps->count - 1] + 1;
	copy->storage = malloc(bytes);
	copy->end = malloc(ps->count * sizeof *copy->end);
	if (!copy->storage || !copy->end)
		return false;
	memcpy(copy->storage, ps->storage, bytes);
	memcpy(copy->end, ps->end, ps->count * sizeof *copy->end);
	return true;
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
		free(patterns->given);
		free(patterns->anchors);
		*patterns = (struct pattern_set){ .storage = NULL };
		return NULL;
	}
	m->base.ops = &matcher_ac_ops;
	m->opt = *opts;
	/* the engine keeps the list itself (ps is left empty) */
	struct pattern_set ps = *patterns;
	m->given = ps.given;
	ps.given = NULL;
	bool holds_nul = ps.holds_nul;
	*patterns = (struct pattern_set){ .storage = NULL };
	struct pattern_set texts;
	bool copied = copy_texts(&ps, &texts);
	uint8_t *anchors = ps.anchors;
	ps.anchors = NULL;
	if (!copied) {
		free(ps.storage);
		free(ps.end);
		goto fail;
	}
	if ((opts->ignore_case && opts->utf8 && fold_setup(m, &ps) != 0) ||
	    ac_adopt_list(m->ac, ps.storage, ps.end, ps.count) != 0)
		goto fail;
	ac_limit_simd(m->ac, (enum simd_level)opts->simd);
	ac_set_threads(m->ac, opts->threads);
	if (ac_compile(m->ac, (enum ac_scan_path)opts->scan_path) != 0 ||
	    (anchors && anchors_setup(m, &texts, anchors) != 0) || fold_partials_setup(m) != 0)
		goto fail;
	matcher_ac_settle(m, holds_nul);
	*error = NULL;
	free(texts.storage);
	free(texts.end);
	free(anchors);
	return &m->base;
fail:
	free(texts.storage);
	free(texts.end);
	free(anchors);
	ac_matcher_destroy(&m->base);
	return NULL;
}
