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

static struct strset expand(const struct regex_tree *t, uint32_t i);

static struct strset expand_rep(const struct regex_tree *t, const struct node *n)
{
	struct strset base = expand(t, n->a), out = { .oom = base.oom }, cur = { .oom = false };
	set_add2(&cur, NULL, 0, NULL, 0, 0);
	for (uint32_t k = 0; !out.oom && !cur.oom; k++) {
		if (k >= n->min)
			set_append(&out, &cur);
		if (k == n->max)
			break;
		struct strset next = { .oom = false };
		set_concat(&next, &cur, &base);
		set_free(&cur);
		cur = next;
		if (cur.n == 0)
			break;
	}
	out.oom = out.oom || cur.oom;
	set_free(&cur);
	set_free(&base);
	return out;
}

static struct strset expand(const struct regex_tree *t, uint32_t i)
{
	const struct node *n = &t->nodes[i];
	struct strset out = { .oom = false };
	switch (n->kind) {
	case NODE_EMPTY: case NODE_BOL: case NODE_EOL:
		set_add2(&out, NULL, 0, NULL, 0,
			 n->kind == NODE_BOL ? REGEX_BOL : n->kind == NODE_EOL ? REGEX_EOL : 0);
		return out;
	case NODE_CHARS:
		for (uint32_t r = n->a; r < n->a + n->b && !out.oom; r++)
			for (uint32_t c = t->ranges[r].lo;; c++) {
				char enc[4];
				set_add2(&out, enc, regex_encode(c, t->utf8, enc), NULL, 0, 0);
				if (c == t->ranges[r].hi || out.oom)
					break;
			}
		return out;
	case NODE_CAT: case NODE_ALT: {
		struct strset a = expand(t, n->a), b = expand(t, n->b);
		out.oom = a.oom || b.oom;
		if (!out.oom && n->kind == NODE_CAT)
			set_concat(&out, &a, &b);
		else if (!out.oom) {
			set_append(&out, &a);
			set_append(&out, &b);
		}
		set_free(&a);
		set_free(&b);
		return out;
	}
	case NODE_REP:
		return expand_rep(t, n);
	}
	return out;
}

int regex_expand(const struct regex_tree *t, regex_emit_fn emit, void *ctx)
{
	struct strset s = expand(t, t->root);
	int rc = s.oom ? -1 : 0;
	for (size_t i = 0; i < s.n && rc == 0; i++) {
		size_t start = str_start(&s, i);
		rc = emit(ctx, s.bytes + start, s.end[i] - start, s.anchors[i]);
	}
	set_free(&s);
	return rc;
}
