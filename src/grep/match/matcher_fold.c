/* SPDX-License-Identifier: MIT */
/* matcher_fold.c - -i in a UTF-8 locale for the Aho-Corasick matcher.
 *
 * Owns: whether a pattern set needs GNU grep's folding (where grep -F -i
 * hands the search to its regex matcher), the folded patterns the
 * automaton is built from, and the windows of folded text a search goes
 * through: whole lines, or overlapping pieces of a line too long for one
 * window, so memory stays bounded; lines without a byte of 0x80 or more
 * (for patterns all ASCII, without ı, ſ or the like) are searched in
 * place.  As with grep's regex matcher, which compares the text
 * upper-cased, matches start on character boundaries of the text; one of
 * a pattern that is not valid UTF-8 may end inside a character.  Where a
 * selected line holds a DFA-narrow character (fold_utf8.h), grep's DFA,
 * which sees the line first, may refuse it: line_ok asks what that DFA
 * would.  Knows nothing of files or output.
 */
#include "matcher_ac_internal.h"

#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Window sizes: a search starts with a small one, so that a match near
 * `from` costs little folding, and doubles it while nothing is found. */
#define FIRST_CHUNK 256
#define MAX_CHUNK (64 * 1024)
#define RAW_CHUNK (4 * 1024) /* the first window searched in place (ascii_find) */

void fold_state_free(struct fold_state *f)
{
	if (!f)
		return;
	fold_table_free(f->table);
	free(f->partial);
	free(f->partial_bytes);
	if (!f->borrowed) {
		free(f->orig.storage);
		free(f->orig.end);
		free(f->narrow);
		free(f->bad);
	}
	free(f);
	fold_release_scratch();
}

/* Appends k to the array *a of *n elements and capacity *cap. */
static int push(size_t **a, size_t *n, size_t *cap, size_t k)
{
	size_t *b = grow_array(*a, cap, *n + 1, sizeof *b, 1);
	if (!b)
		return -1;
	*a = b;
	b[(*n)++] = k;
	return 0;
}

/* Folds every pattern of ps into f's new list *out; records in f what
 * line_ok needs.  Returns 1 when some pattern needs folding, 0 when none
 * does, -1 when out of memory. */
static int fold_list(struct fold_state *f, const struct pattern_set *ps, struct pattern_set *out)
{
	if (ps->count == 0)
		return 0;
	size_t size = (size_t)ps->end[ps->count - 1] + 1, o = 0, max = 0;
	out->storage = malloc(2 * size + 1);
	out->end = malloc(ps->count * sizeof *out->end);
	if (!out->storage || !out->end)
		return -1;
	bool needs = false;
	f->ascii = true;
	for (size_t k = 0; k < ps->count; k++) {
		struct pattern p = pattern_at(ps, k);
		struct fold_facts facts;
		size_t n = fold_pattern(f->table, p.bytes, p.len, out->storage + o, &facts);
		if (o + n > UINT32_MAX)
			return -1;
		out->end[k] = (uint32_t)(o + n);
		out->storage[o + n] = '\0';
		o += n + 1;
		max = n > max ? n : max;
		needs |= facts.needs_fold;
		f->ascii &= fold_ascii_run(p.bytes, p.len) == p.len;
		f->filter |= facts.invalid || p.len == 0;
		if ((facts.narrow && push(&f->narrow, &f->n_narrow, &f->cap_narrow, k) != 0) ||
		    (facts.invalid && push(&f->bad, &f->n_bad, &f->cap_bad, k) != 0))
			return -1;
	}
	out->count = ps->count;
	out->holds_nul = ps->holds_nul;
	char *shrunk = realloc(out->storage, o);
	out->storage = shrunk ? shrunk : out->storage;
	fold_state_size(f, max);
	return needs;
}

/* The length of the incomplete UTF-8 sequence that ends p[0..len): a
 * lead byte and fewer continuation bytes than it needs; 0 when none. */
static size_t incomplete_tail(const char *p, size_t len)
{
	for (size_t k = 1; k <= 3 && k <= len; k++) {
		unsigned char c = (unsigned char)p[len - k];
		if ((c & 0xC0) == 0x80)
			continue;
		size_t need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
			      : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
		return need > k ? k : 0;
	}
	return 0;
}

/* Appends pattern p, whose tail of `tail` bytes is incomplete, to f's
 * partial patterns: 0, or -1 when out of memory. */
static int add_partial(struct matcher_ac *m, struct pattern p, size_t tail, size_t *cap,
		       size_t *bytes, size_t *bytes_cap)
{
	struct fold_state *f = m->fold;
	uint32_t id;
	if (!fold_identify(m, p.bytes, p.len, &id))
		return 0; /* not in the automaton (a NUL pattern dropped) */
	struct fold_partial *np = grow_array(f->partial, cap, f->n_partial + 1, sizeof *np, 4);
	if (!np)
		return -1;
	f->partial = np;
	size_t rest = p.len - tail;
	char *nb = grow_array(f->partial_bytes, bytes_cap, *bytes + fold_room(rest) + tail, 1, 256);
	if (!nb)
		return -1;
	f->partial_bytes = nb;
	struct fold_facts facts;
	size_t n = fold_pattern(f->table, p.bytes, rest, nb + *bytes, &facts);
	memcpy(nb + *bytes + n, p.bytes + rest, tail);
	np[f->n_partial++] = (struct fold_partial){
		.id = id, .rest = *bytes, .rest_len = n, .tail = *bytes + n, .tail_len = tail,
	};
	*bytes += n + tail;
	return 0;
}

int fold_partials_setup(struct matcher_ac *m)
{
	struct fold_state *f = m->fold;
	if (!f || !m->opt.word_regex_rules)
		return 0;
	size_t cap = 0, bytes = 0, bytes_cap = 0;
	for (size_t k = 0; k < f->n_bad; k++) {
		struct pattern p = pattern_at(&f->orig, f->bad[k]);
		size_t tail = incomplete_tail(p.bytes, p.len);
		if (tail && add_partial(m, p, tail, &cap, &bytes, &bytes_cap) != 0)
			return -1;
	}
	return 0;
}

void fold_state_size(struct fold_state *f, size_t max_folded)
{
	f->overlap = 4 * max_folded;
	f->max_chunk = f->overlap > MAX_CHUNK ? f->overlap : MAX_CHUNK;
}

int fold_setup(struct matcher_ac *m, struct pattern_set *ps)
{
	struct fold_state *f = calloc(1, sizeof *f);
	struct pattern_set folded = { .storage = NULL };
	int rc = f && (f->table = fold_table_new()) ? fold_list(f, ps, &folded) : -1;
	if (rc == 1) { /* the automaton takes the folded list */
		if (f->n_narrow || f->n_bad)
			f->orig = *ps;
		else {
			free(ps->storage);
			free(ps->end);
		}
		*ps = folded;
		m->fold = f;
		return 0;
	}
	free(folded.storage);
	free(folded.end);
	fold_state_free(f);
	if (rc == 0)
		return 0; /* grep's fixed-string matcher folds ASCII only */
	free(ps->storage);
	free(ps->end);
	*ps = (struct pattern_set){ .storage = NULL };
	return -1;
}

/* The next window from buffer offset pos (a character boundary): [pos,
 * *wb) holds whole lines, or is cut inside a line longer than about
 * `chunk`; then matches starting at *own or later are the next window's,
 * which starts there (every match starting before *own ends by *wb). */
static void plan(const struct fold_state *f, char eol, const char *buf, size_t len, size_t pos,
		 size_t chunk, size_t *wb, size_t *own)
{
	*wb = *own = len;
	if (len - pos <= chunk)
		return;
	size_t target = pos + chunk, reach = len - target <= chunk ? len : target + chunk;
	const char *nl = memchr(buf + target, eol, reach - target);
	if (nl)
		*wb = *own = (size_t)(nl - buf) + 1;
	if (nl || reach == len)
		return;
	*own = fold_char_ceil(buf, len, target);
	*wb = len - *own <= f->overlap ? len : fold_char_ceil(buf, len, *own + f->overlap);
}

/* Sets *v to the view of window [pos, wb) folded into scratch `slot`.
 * False when out of memory (noted: matcher_note_failure). */
static bool folded_view(const struct fold_state *f, const char *buf, size_t pos, size_t wb,
			size_t own, int slot, struct fold_window *fw, struct view *v)
{
	if (!fold_window(f->table, buf, pos, wb, slot, fw)) {
		matcher_note_failure();
		return false;
	}
	*v = (struct view){
		.text = fw->text, .len = fw->len, .own = own == wb ? SIZE_MAX : fold_floor(fw, own),
		.fw = fw, .filter = f->filter,
	};
	return true;
}

/* dfa_occurs' check of each match in a window of the line [ls, le). */
struct occurs {
	const struct matcher_ac *m;
	const struct view *v;
	const char *buf;
	size_t ls, le;
};

static int occurs_cb(const ac_match *am, void *ctx)
{
	const struct occurs *o = ctx;
	const struct view *v = o->v;
	const struct fold_state *f = o->m->fold;
	if (am->start >= v->own || !view_boundary(v, am->start))
		return 0;
	size_t s = view_to_buf(v, am->start), e = view_to_buf(v, am->end);
	if (o->m->opt.line && (s != o->ls || e != o->le))
		return 0;
	const char *t = o->buf + s;
	if (!fold_is_valid(t, e - s))
		return 0; /* a pattern that is not valid UTF-8: see superset_bad */
	if (!fold_has_narrow(f->table, t, e - s))
		return 1;
	for (size_t k = 0; k < f->n_narrow; k++) {
		struct pattern p = pattern_at(&f->orig, f->narrow[k]);
		if (fold_dfa_equal(f->table, p.bytes, p.len, t, e - s))
			return 1;
	}
	return 0;
}

/* Does a valid pattern occur in the line [ls, le) (be the line, under -x)
 * under the DFA's relation?  1 yes, 0 no, -1 out of memory. */
static int dfa_occurs(const struct matcher_ac *m, const char *buf, size_t ls, size_t le)
{
	const struct fold_state *f = m->fold;
	for (size_t pos = ls;;) {
		size_t wb, own;
		plan(f, m->opt.eol, buf, le, pos, f->max_chunk, &wb, &own);
		struct fold_window fw;
		struct view v;
		if (!folded_view(f, buf, pos, wb, own, 1, &fw, &v))
			return -1;
		struct occurs o = { .m = m, .v = &v, .buf = buf, .ls = ls, .le = le };
		if (ac_scan_overlapping(m->ac, (const uint8_t *)fw.text, fw.len, 0, occurs_cb, &o))
			return 1;
		if (own >= le)
			return 0;
		pos = own;
	}
}

/* grep's DFA treats each byte of a pattern that is not valid UTF-8 as a
 * back-reference, which its superset DFA reads as ".*": does the line
 * s[0..n) hold p's valid pieces in order (under -x, the first at its
 * start and the last at its end, where p begins or ends with one)? */
static bool pieces_in_order(const struct fold_table *t, struct pattern p, const char *s, size_t n,
			    bool line)
{
	size_t at = 0;
	for (size_t i = 0; i < p.len;) {
		size_t j = i, l;
		uint32_t wc;
		while (j < p.len && (l = fold_decode((const unsigned char *)p.bytes + j, p.len - j, &wc)))
			j += l;
		if (j > i) {
			at = fold_dfa_search(t, p.bytes + i, j - i, s, n, at, line && i == 0,
					     line && j == p.len);
			if (at == SIZE_MAX)
				return false;
		}
		i = j + 1; /* past the byte that is no character */
	}
	return true;
}

/* Does grep's superset DFA let a pattern that is not valid UTF-8 through
 * on the line [ls, le)? */
static bool superset_bad(const struct matcher_ac *m, const char *buf, size_t ls, size_t le)
{
	const struct fold_state *f = m->fold;
	for (size_t k = 0; k < f->n_bad; k++)
		if (pieces_in_order(f->table, pattern_at(&f->orig, f->bad[k]), buf + ls, le - ls,
				    m->opt.line))
			return true;
	return false;
}

/* Does grep select the line [ls, le), which its regex matcher accepts?
 * Its DFA decides first: where the line holds no DFA-narrow character the
 * two agree; otherwise the line needs a valid pattern's occurrence under
 * the DFA's relation, or else (its DFA then defers to the regex matcher)
 * a pattern that is not valid UTF-8 let through by the superset DFA.
 * 1 yes, 0 no, -1 out of memory. */
static int line_ok(const struct matcher_ac *m, const char *buf, size_t ls, size_t le)
{
	const struct fold_state *f = m->fold;
	if (!fold_has_narrow(f->table, buf + ls, le - ls))
		return 1;
	int occurs = dfa_occurs(m, buf, ls, le);
	if (occurs != 0)
		return occurs;
	return f->n_bad && superset_bad(m, buf, ls, le);
}

/* ac_find_in_view, then line_ok on the line found (line selection only),
 * going on past each line refused: 1 found, 0 not, -1 out of memory.  A
 * refused line that goes on past the window's own part sets *skip to the
 * line's end (SIZE_MAX: the buffer's). */
static int find_selected(const struct matcher_ac *m, const struct view *v, const char *buf,
			 size_t len, size_t from, size_t vfrom, bool exact,
			 struct matcher_hit *hit, size_t *skip)
{
	char eol = m->opt.eol;
	for (;;) {
		if (!ac_find_in_view(m, v, buf, len, from, vfrom, exact, hit))
			return 0;
		if (exact || !v->fw || !v->fw->narrow)
			return 1;
		const char *nl = memrchr(buf, eol, hit->start);
		size_t ls = nl ? (size_t)(nl - buf) + 1 : 0;
		nl = memchr(buf + hit->end, eol, len - hit->end);
		size_t le = nl ? (size_t)(nl - buf) : len;
		int ok = line_ok(m, buf, ls, le);
		if (ok != 0)
			return ok;
		from = le + 1;
		if (le >= len || (v->own != SIZE_MAX && from >= view_to_buf(v, v->own))) {
			*skip = le >= len ? SIZE_MAX : from;
			return 0;
		}
		vfrom = view_floor(v, from);
	}
}

/* Where the part of window [pos, wb) to search in one go ends, when h is
 * the first byte folding may change (fold_skip): before h's line, the
 * lines before being searched in place; else after the lines from pos
 * that hold such bytes, up to a stretch of lines without any worth a call
 * of their own (GAP bytes), or at wb.  Lines of English with a non-ASCII
 * byte here and there are folded one by one, text in another script in
 * large windows. */
#define GAP 1024

static size_t part_end(const struct fold_state *f, const char *buf, size_t pos, size_t wb,
		       size_t h, char eol)
{
	const char *nl = memrchr(buf + pos, eol, h - pos);
	if (nl)
		return (size_t)(nl - buf) + 1;
	for (;;) {
		nl = memchr(buf + h, eol, wb - h);
		size_t le = nl ? (size_t)(nl - buf) + 1 : wb, gap = wb - le < GAP ? wb - le : GAP;
		if (le == wb)
			return wb;
		h = le + fold_skip(f->table, buf + le, gap, f->ascii);
		if (h == le + gap)
			return h == wb ? wb : le;
	}
}

/* matcher_find from `pos` (a character boundary at or after `from`) for
 * matches starting before `limit` (a line start or len; one at limit may
 * be reported too, as it may from any window), through folded windows:
 * 1 found, 0 not, -1 out of memory. */
static int fold_search(const struct matcher_ac *m, const char *buf, size_t len, size_t from,
		       size_t pos, size_t limit, bool exact, struct matcher_hit *hit)
{
	const struct fold_state *f = m->fold;
	for (size_t chunk = FIRST_CHUNK;; chunk = chunk < f->max_chunk ? 2 * chunk : chunk) {
		size_t wb, own, skip = 0, vfrom = pos;
		plan(f, m->opt.eol, buf, limit, pos, chunk, &wb, &own);
		size_t h = pos + fold_skip(f->table, buf + pos, wb - pos, f->ascii), stop = h;
		if (h < wb && (stop = part_end(f, buf, pos, wb, h, m->opt.eol)) < wb)
			wb = own = stop; /* whole lines */
		struct fold_window fw;
		/* the text searched as it is, its fold as far as the patterns go */
		struct view v = {
			.text = buf, .len = wb, .own = own == wb ? SIZE_MAX : own, .filter = f->filter,
		};
		if (h < wb) {
			if (!folded_view(f, buf, pos, wb, own, 0, &fw, &v))
				return -1;
			vfrom = 0;
		}
		int found = find_selected(m, &v, buf, len, from, vfrom, exact, hit, &skip);
		if (found != 0)
			return found;
		if (own >= limit || skip == SIZE_MAX)
			return 0;
		pos = skip > own ? skip : own;
	}
}

/* The end of the line holding p: past its terminator, or len. */
static size_t line_after(const char *buf, size_t len, size_t p, char eol)
{
	const char *nl = memchr(buf + p, eol, len - p);
	return nl ? (size_t)(nl - buf) + 1 : len;
}

/* matcher_find for patterns all ASCII.  Only characters folding to ASCII
 * (ı, ſ) make the fold differ from the text for them, so the text is
 * searched as it is, in windows; what the search went over, up to the end
 * of the line it found (or of the window), is then looked at for such a
 * character: from the line holding one, the lines that hold them are
 * searched folded (fold_search), and the search goes on after them. */
static bool ascii_find(const struct matcher_ac *m, const char *buf, size_t len, size_t from,
		       bool exact, struct matcher_hit *hit)
{
	const struct fold_state *f = m->fold;
	char eol = m->opt.eol;
	size_t pos = fold_char_ceil(buf, len, from);
	for (size_t chunk = RAW_CHUNK;; chunk = chunk < f->max_chunk ? 2 * chunk : chunk) {
		size_t wb, own;
		plan(f, eol, buf, len, pos, chunk, &wb, &own);
		struct view v = {
			.text = buf, .len = wb, .own = own == wb ? SIZE_MAX : own, .filter = f->filter,
		};
		bool got = ac_find_in_view(m, &v, buf, len, from, pos, exact, hit);
		size_t seen = got ? line_after(buf, len, hit->end, eol) : wb;
		seen = seen < wb ? seen : wb;
		size_t p = pos + fold_skip(f->table, buf + pos, seen - pos, true);
		if (p == seen && (got || own >= len))
			return got;
		if (p == seen) {
			pos = own;
			continue;
		}
		const char *nl = memrchr(buf + pos, eol, p - pos);
		size_t ls = nl ? (size_t)(nl - buf) + 1 : pos, le = part_end(f, buf, ls, len, p, eol);
		int found = fold_search(m, buf, len, from, ls, le, exact, hit);
		if (found != 0)
			return found > 0;
		if (le >= len)
			return false;
		pos = le;
		chunk = RAW_CHUNK / 2;
	}
}

bool fold_counts_as_is(const struct matcher_ac *m, const char *buf, size_t len)
{
	const struct fold_state *f = m->fold;
	return !f->filter && fold_skip(f->table, buf, len, f->ascii) == len;
}

bool fold_find(const struct matcher_ac *m, const char *buf, size_t len, size_t from, bool exact,
	       struct matcher_hit *hit)
{
	if (m->fold->ascii)
		return ascii_find(m, buf, len, from, exact, hit);
	return fold_search(m, buf, len, from, fold_char_ceil(buf, len, from), len, exact, hit) > 0;
}

int fold_each_overlapping(const struct matcher_ac *m, const char *buf, size_t len, size_t from,
			  struct overlap *o)
{
	const struct fold_state *f = m->fold;
	size_t pos = fold_char_ceil(buf, len, from), wb, own;
	do { /* every window folded: -i's occurrences are rare work */
		plan(f, m->opt.eol, buf, len, pos, f->max_chunk, &wb, &own);
		struct fold_window fw;
		struct view v;
		if (!folded_view(f, buf, pos, wb, own, 0, &fw, &v))
			return -1;
		int rc = overlap_view(o, &v, 0);
		if (rc != 0)
			return rc;
		pos = own;
	} while (own < len);
	return 0;
}

bool fold_identify(const struct matcher_ac *m, const char *p, size_t len, uint32_t *id)
{
	char small[256];
	char *folded = fold_room(len) <= sizeof small ? small : malloc(fold_room(len));
	if (!folded)
		return false;
	struct fold_facts facts;
	size_t n = fold_pattern(m->fold->table, p, len, folded, &facts);
	bool found = ac_pattern_id(m->ac, folded, n, id);
	if (folded != small)
		free(folded);
	return found;
}
