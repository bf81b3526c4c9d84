/* SPDX-License-Identifier: MIT */
/* regex_expand.c - a parse tree into its literal strings (see regex.h).
 *
 * Owns: the sets of strings a node denotes, each with its anchors, and
 * the rule that joins anchors: in a concatenation a ^ may follow only the
 * empty string and a $ be followed only by it (else the combination
 * matches nothing and is dropped).  The parser has bounded every set.
 */
#include "regex_internal.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

size_t regex_encode(uint32_t c, bool utf8, char *out)
{
	if ((c & RAW_BYTE) || !utf8 || c < 0x80) {
		out[0] = (char)(c & 0xff);
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/* Strings back to back, each with its end offset and anchors. */
struct strset {
	char *bytes;
	size_t len, cap;
	uint32_t *end;
	uint8_t *anchors;
	size_t n, ncap, acap;
	bool oom;
};

static void set_free(struct strset *s)
{
	free(s->bytes);
	free(s->end);
	free(s->anchors);
	*s = (struct strset){ .oom = false };
}

static size_t str_start(const struct strset *s, size_t i)
{
	return i ? s->end[i - 1] : 0;
}

/* Appends a[0..alen) then b[0..blen) as one string. */
static void set_add2(struct strset *s, const char *a, size_t alen, const char *b, size_t blen,
		     unsigned anchors)
{
	char *nb = grow_array(s->bytes, &s->cap, s->len + alen + blen + 1, 1, 256);
	uint32_t *ne = nb ? grow_array(s->end, &s->ncap, s->n + 1, sizeof *ne, 64) : NULL;
	uint8_t *na = ne ? grow_array(s->anchors, &s->acap, s->n + 1, 1, 64) : NULL;
	if (nb)
		s->bytes = nb;
	if (ne)
		s->end = ne;
	if (!na) {
		s->oom = true;
		return;
	}
	s->anchors = na;
	if (alen)
		memcpy(s->bytes + s->len, a, alen);
	if (blen)
		memcpy(s->bytes + s->len + alen, b, blen);
	s->len += alen + blen;
	s->end[s->n] = (uint32_t)s->len;
	s->anchors[s->n++] = (uint8_t)anchors;
}

/* Appends to `out` each string of a followed by each of b, as the
 * anchors allow. */
static void set_concat(struct strset *out, const struct strset *a, const struct strset *b)
{
	for (size_t i = 0; i < a->n && !out->oom; i++) {
		size_t as = str_start(a, i), alen = a->end[i] - as;
		unsigned aa = a->anchors[i];
		for (size_t j = 0; j < b->n; j++) {
			size_t bs = str_start(b, j), blen = b->end[j] - bs;
			unsigned ba = b->anchors[j];
			if (((ba & REGEX_BOL) && alen) || ((aa & REGEX_EOL) && blen))
				continue;
			set_add2(out, a->bytes + as, alen, b->bytes + bs, blen, aa | ba);
		}
	}
}

static void set_append(struct strset *out, const struct strset *a)
{
	for (size_t i = 0; i < a->n && !out->oom; i++) {
		size_t as = str_start(a, i);
		set_add2(out, a->bytes + as, a->end[i] - as, NULL, 0, a->anchors[i]);
	}
}

/* Appends to out each concatenation of one string of each of sets[0..n),
 * as the anchors allow.  Neighbouring sets are never both single strings
 * (expand_concatenation joins those), and each set of two or more strings
 * at least doubles the count, which the parser bounds: n stays small. */
static void set_product(struct strset *out, struct strset *sets, size_t n)
{
	struct strset acc = sets[0];
	sets[0] = (struct strset){ .oom = false };
	for (size_t k = 1; k < n && !acc.oom; k++) {
		struct strset next = { .oom = false };
		set_concat(&next, &acc, &sets[k]);
		set_free(&acc);
		acc = next;
	}
	out->oom = out->oom || acc.oom;
	if (!out->oom)
		set_append(out, &acc);
	set_free(&acc);
}

/* Calls emit for each word of NODE_WORDS n, leftmost first: the runs of
 * text[a .. a+b) between its word_op (and the | after a BRE's \).
 * Returns 0 or emit's first non-zero value. */
static int each_word(const struct regex_tree *t, const struct node *n, regex_emit_fn emit,
		     void *ctx)
{
	const char *w = t->text + n->a, *end = w + n->b;
	size_t gap = t->word_op == '|' ? 1 : 2;
	int rc = 0;
	for (const char *e = w; rc == 0 && e < end; w = e + gap) {
		e = memchr(w, t->word_op, (size_t)(end - w));
		e = e ? e : end;
		rc = emit(ctx, w, (size_t)(e - w), 0);
	}
	return rc;
}

/* regex_emit_fn into a strset (ctx). */
static int set_emit(void *ctx, const char *bytes, size_t len, unsigned anchors)
{
	struct strset *s = ctx;
	set_add2(s, bytes, len, NULL, 0, anchors);
	return s->oom ? -1 : 0;
}

static void expand_into(struct strset *out, const struct regex_tree *t, uint32_t i);

static struct strset expand(const struct regex_tree *t, uint32_t i)
{
	struct strset out = { .oom = false };
	expand_into(&out, t, i);
	return out;
}

static void expand_rep(struct strset *out, const struct regex_tree *t, const struct node *n)
{
	struct strset base = expand(t, n->a), cur = { .oom = false };
	out->oom = out->oom || base.oom;
	set_add2(&cur, NULL, 0, NULL, 0, 0);
	for (uint32_t k = 0; !out->oom && !cur.oom; k++) {
		if (k >= n->min)
			set_append(out, &cur);
		if (k == n->max)
			break;
		struct strset next = { .oom = false };
		set_concat(&next, &cur, &base);
		set_free(&cur);
		cur = next;
		if (cur.n == 0)
			break;
	}
	out->oom = out->oom || cur.oom;
	set_free(&cur);
	set_free(&base);
}

/* Each alternative goes straight into out, leftmost first, with no set
 * per alternative. */
static void expand_alternation(struct strset *out, const struct regex_tree *t, uint32_t i)
{
	const struct node *n = &t->nodes[i];
	for (uint32_t k = n->a; k < n->a + n->b && !out->oom; k++)
		expand_into(out, t, t->kids[k]);
}

/* The parser nests a concatenation to the left: ((a b) c).  Each part is
 * expanded once, runs of single strings are joined as they come (so a
 * branch of n atoms costs O(n), not n^2/2 copies, and no recursion per
 * atom), and the product of what is left goes into out. */
static void expand_concatenation(struct strset *out, const struct regex_tree *t, uint32_t i)
{
	size_t depth = 0;
	for (uint32_t j = i; t->nodes[j].kind == NODE_CAT; j = t->nodes[j].a)
		depth++;
	uint32_t *part = malloc((depth + 1) * sizeof *part);
	struct strset *sets = calloc(depth + 1, sizeof *sets);
	size_t n_sets = 0;
	bool empty = false;
	if (!part || !sets) {
		out->oom = true;
		goto done;
	}
	for (size_t k = depth; t->nodes[i].kind == NODE_CAT; i = t->nodes[i].a)
		part[k--] = t->nodes[i].b;
	part[0] = i;
	for (size_t k = 0; k <= depth && !out->oom && !empty; k++) {
		struct strset s = expand(t, part[k]);
		out->oom = out->oom || s.oom;
		if (n_sets && s.n == 1 && sets[n_sets - 1].n == 1) { /* join two single strings */
			struct strset joined = { .oom = false };
			set_concat(&joined, &sets[n_sets - 1], &s);
			out->oom = out->oom || joined.oom;
			set_free(&sets[n_sets - 1]);
			set_free(&s);
			s = joined;
			n_sets--;
		}
		empty = s.n == 0;
		sets[n_sets++] = s;
	}
	if (!out->oom && !empty)
		set_product(out, sets, n_sets);
done:
	for (size_t k = 0; sets && k < n_sets; k++)
		set_free(&sets[k]);
	free(sets);
	free(part);
}

static void expand_into(struct strset *out, const struct regex_tree *t, uint32_t i)
{
	const struct node *n = &t->nodes[i];
	switch (n->kind) {
	case NODE_EMPTY: case NODE_BOL: case NODE_EOL:
		set_add2(out, NULL, 0, NULL, 0,
			 n->kind == NODE_BOL ? REGEX_BOL : n->kind == NODE_EOL ? REGEX_EOL : 0);
		return;
	case NODE_CHARS:
		for (uint32_t r = n->a; r < n->a + n->b && !out->oom; r++)
			for (uint32_t c = t->ranges[r].lo;; c++) {
				char enc[4];
				set_add2(out, enc, regex_encode(c, t->utf8, enc), NULL, 0, 0);
				if (c == t->ranges[r].hi || out->oom)
					break;
			}
		return;
	case NODE_STRING:
		set_add2(out, t->text + n->a, n->b, NULL, 0, 0);
		return;
	case NODE_CAT:
		expand_concatenation(out, t, i);
		return;
	case NODE_ALT:
		expand_alternation(out, t, i);
		return;
	case NODE_REP:
		expand_rep(out, t, n);
		return;
	case NODE_WORDS:
		(void)each_word(t, n, set_emit, out);
		return;
	}
}

/* Emits the literals of alternative i of the root: a string or an anchor
 * as it stands, anything else through a set. */
static int emit_alternative(const struct regex_tree *t, uint32_t i, regex_emit_fn emit, void *ctx)
{
	const struct node *n = &t->nodes[i];
	if (n->kind == NODE_STRING)
		return emit(ctx, t->text + n->a, n->b, 0);
	if (n->kind == NODE_WORDS)
		return each_word(t, n, emit, ctx);
	if (n->kind == NODE_EMPTY || n->kind == NODE_BOL || n->kind == NODE_EOL)
		return emit(ctx, "", 0, n->kind == NODE_BOL ? REGEX_BOL
					: n->kind == NODE_EOL ? REGEX_EOL : 0);
	struct strset s = expand(t, i);
	int rc = s.oom ? -1 : 0;
	for (size_t k = 0; k < s.n && rc == 0; k++) {
		size_t start = str_start(&s, k);
		rc = emit(ctx, s.bytes + start, s.end[k] - start, s.anchors[k]);
	}
	set_free(&s);
	return rc;
}

int regex_expand(const struct regex_tree *t, regex_emit_fn emit, void *ctx)
{
	const struct node *root = &t->nodes[t->root];
	if (root->kind != NODE_ALT)
		return emit_alternative(t, t->root, emit, ctx);
	int rc = 0;
	for (uint32_t k = root->a; k < root->a + root->b && rc == 0; k++)
		rc = emit_alternative(t, t->kids[k], emit, ctx);
	return rc;
}
