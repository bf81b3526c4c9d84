/* SPDX-License-Identifier: MIT */
/* regex_tree.c - the parse tree as the parser grows it (see
 * regex_internal.h).
 *
 * Owns: appending nodes with their expansion sizes (saturating), the
 * bound and the nesting checked on each; the strings' text; runs of
 * literal characters as one string node, lengthened in place; an
 * alternation's consecutive branches that are plain words as one
 * NODE_WORDS; the refusals' messages, each with its true reason.
 */
#include "regex_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* The reason a refusal gives, by enum refusal. */
static const char *const refusal_reason[] = {
	[REFUSE_INFINITE] = "acgrep searches only patterns that match a finite set of strings",
	[REFUSE_BOUND] = "acgrep expands the patterns into at most 1,000,000 strings or 64 MiB",
	[REFUSE_NESTING] = "acgrep parses groups and repetitions at most 1,000 deep",
	[REFUSE_ANCHOR] = "grep selects lines by it but its -o, --color and -w matches disagree",
	[REFUSE_BACKREF] = "acgrep does not expand back-references",
	[REFUSE_CONTEXT] = "acgrep does not expand word or buffer anchors or backslash classes",
	[REFUSE_UNDEFINED] = "POSIX leaves its meaning undefined",
	[REFUSE_CHARACTERS] = "acgrep expands bracket expressions into whole characters only",
	[REFUSE_WRAPPED] = "grep's -x and -w wrap the pattern in a group that this ) closes",
};

uint32_t regex_refuse(struct parser *ps, size_t at, const char *what, enum refusal why)
{
	snprintf(ps->err->text, sizeof ps->err->text, "byte %zu: %s is not supported: %s; grep %s "
		 "can search this one", at + 1, what, refusal_reason[why],
		 ps->o->syntax == REGEX_EXTENDED ? "-E" : "-G");
	ps->err->syntax = false;
	ps->err->at = at;
	return NO_NODE;
}

uint32_t regex_oom(struct parser *ps)
{
	*ps->err = (struct regex_error){ .text = "memory exhausted", .syntax = true };
	return NO_NODE;
}

/* Saturating: sizes past the bounds only need to stay past them. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* A size as a node holds it (struct node). */
static uint32_t sat32(uint64_t a)
{
	return a > UINT32_MAX ? UINT32_MAX : (uint32_t)a;
}

uint32_t regex_node(struct parser *ps, struct node n, size_t at)
{
	if (n.count > REGEX_MAX_LITERALS || n.bytes > REGEX_MAX_BYTES)
		return regex_refuse(ps, at, "an expansion past the bound", REFUSE_BOUND);
	struct regex_tree *t = ps->t;
	if (n.kind == NODE_REP || n.kind == NODE_CAT) {
		uint32_t a = t->nodes[n.a].nesting, b = n.kind == NODE_REP ? 0 : t->nodes[n.b].nesting;
		uint32_t nesting = (a > b ? a : b) + (n.kind == NODE_REP);
		if (nesting > REGEX_MAX_NESTING)
			return regex_refuse(ps, at, "repetitions nested more than 1,000 deep",
					    REFUSE_NESTING);
		n.nesting = (uint16_t)nesting;
	}
	if (t->n == t->cap) { /* grown only when full: a node per word of a list */
		struct node *nn = grow_array(t->nodes, &t->cap, t->n + 1, sizeof *nn, 8);
		if (!nn)
			return regex_oom(ps);
		t->nodes = nn;
	}
	t->nodes[t->n] = n;
	return (uint32_t)t->n++;
}

static const struct node *node_at(const struct parser *ps, uint32_t i)
{
	return &ps->t->nodes[i];
}

uint32_t regex_cat(struct parser *ps, uint32_t a, uint32_t b, size_t at)
{
	const struct node *x = node_at(ps, a), *y = node_at(ps, b);
	return regex_node(ps, (struct node){
		.kind = NODE_CAT, .a = a, .b = b, .count = sat32(sat_mul(x->count, y->count)),
		.bytes = sat32(sat_add(sat_mul(x->bytes, y->count), sat_mul(y->bytes, x->count))),
	}, at);
}

/* Adds an alternative's sizes to x's, refusing it (made for the | at
 * byte `at`) when they pass the bound. */
static bool alternation_sizes(struct parser *ps, struct alternation *x, uint64_t count,
			      uint64_t bytes, uint32_t nesting, size_t at)
{
	x->count = sat_add(x->count, count);
	x->bytes = sat_add(x->bytes, bytes);
	x->nesting = nesting > x->nesting ? nesting : x->nesting;
	if (x->count > REGEX_MAX_LITERALS || x->bytes > REGEX_MAX_BYTES) {
		regex_refuse(ps, at, "an expansion past the bound", REFUSE_BOUND);
		return false;
	}
	return true;
}

static bool push_alternative(struct parser *ps, uint32_t a)
{
	if (ps->n_alts == ps->cap_alts) {
		uint32_t *na = grow_array(ps->alts, &ps->cap_alts, ps->n_alts + 1, sizeof *na, 64);
		if (!na) {
			regex_oom(ps);
			return false;
		}
		ps->alts = na;
	}
	ps->alts[ps->n_alts++] = a;
	return true;
}

/* Makes x's pending words one alternative, a NODE_WORDS (sized in x
 * already). */
static bool flush_words(struct parser *ps, struct alternation *x)
{
	if (!x->words)
		return true;
	uint32_t w = regex_node(ps, (struct node){
		.kind = NODE_WORDS, .a = (uint32_t)x->words_from,
		.b = (uint32_t)(x->words_to - x->words_from), .count = x->words,
		.bytes = x->words_bytes,
	}, x->words_from);
	x->words = x->words_bytes = 0;
	return w != NO_NODE && push_alternative(ps, w);
}

bool regex_alternative(struct parser *ps, struct alternation *x, uint32_t a, size_t at)
{
	const struct node *n = node_at(ps, a);
	return alternation_sizes(ps, x, n->count, n->bytes, n->nesting, at) && flush_words(ps, x) &&
	       push_alternative(ps, a);
}

bool regex_alternative_word(struct parser *ps, struct alternation *x, size_t from, size_t to,
			    size_t at)
{
	if (!alternation_sizes(ps, x, 1, to - from, 0, at))
		return false;
	size_t op = ps->o->syntax == REGEX_EXTENDED ? 1 : 2; /* | or \| between words */
	if (x->words && x->words_to + op != from && !flush_words(ps, x))
		return false;
	if (!x->words)
		x->words_from = from;
	x->words_to = to;
	x->words++;
	x->words_bytes += (uint32_t)(to - from);
	return true;
}

uint32_t regex_alt(struct parser *ps, struct alternation *x)
{
	struct regex_tree *t = ps->t;
	if (!flush_words(ps, x))
		return NO_NODE;
	size_t n = ps->n_alts - x->base;
	if (x->base == 0 && t->n_kids == 0) { /* the first one (a list's words): the stack, kept */
		free(t->kids);
		t->kids = ps->alts;
		t->cap_kids = ps->cap_alts;
		t->n_kids = n;
		ps->alts = NULL;
		ps->cap_alts = 0;
	} else {
		uint32_t *nk = grow_array(t->kids, &t->cap_kids, t->n_kids + n, sizeof *nk, 8);
		if (!nk)
			return regex_oom(ps);
		t->kids = nk;
		memcpy(nk + t->n_kids, ps->alts + x->base, n * sizeof *nk);
		t->n_kids += n;
	}
	ps->n_alts = x->base;
	return regex_node(ps, (struct node){
		.kind = NODE_ALT, .a = (uint32_t)(t->n_kids - n), .b = (uint32_t)n,
		.count = sat32(x->count), .bytes = sat32(x->bytes), .nesting = (uint16_t)x->nesting,
	}, 0);
}

/* a repeated min to max times: sizes summed over the counts, each
 * a power of a's, stopping once past the bounds. */
uint32_t regex_repeat(struct parser *ps, uint32_t a, uint32_t min, uint32_t max, size_t at)
{
	const struct node *x = node_at(ps, a);
	uint64_t count = 0, bytes = 0, pc = 1, pb = 0; /* a^k's count and bytes */
	for (uint32_t k = 0; k <= max; k++) {
		if (k >= min) {
			count = sat_add(count, pc);
			bytes = sat_add(bytes, pb);
		}
		if (count > REGEX_MAX_LITERALS || bytes > REGEX_MAX_BYTES)
			break;
		pb = sat_add(sat_mul(pb, x->count), sat_mul(x->bytes, pc));
		pc = sat_mul(pc, x->count);
		if (pc == 0 && k >= min)
			break;
	}
	return regex_node(ps, (struct node){
		.kind = NODE_REP, .a = a, .min = min, .max = max, .count = sat32(count),
		.bytes = sat32(bytes),
	}, at);
}

/* Appends bytes[0..len) to the tree's text; returns their offset there,
 * or UINT32_MAX when out of memory. */
uint32_t regex_add_text(struct parser *ps, const void *bytes, size_t len)
{
	struct regex_tree *t = ps->t;
	if (t->text_len + len >= UINT32_MAX)
		return UINT32_MAX;
	if (t->text_len + len > t->text_cap) {
		char *nt = grow_array(t->text, &t->text_cap, t->text_len + len, 1, 64);
		if (!nt)
			return UINT32_MAX;
		t->text = nt;
	}
	memcpy(t->text + t->text_len, bytes, len);
	t->text_len += len;
	return (uint32_t)(t->text_len - len);
}

uint32_t regex_char_node(struct parser *ps, uint32_t c, size_t at)
{
	char enc[4];
	size_t len = regex_encode(c, ps->o->utf8, enc);
	uint32_t off = regex_add_text(ps, enc, len);
	if (off == UINT32_MAX)
		return regex_oom(ps);
	return regex_node(ps, (struct node){
		.kind = NODE_STRING, .a = off, .b = (uint32_t)len, .count = 1, .bytes = len,
	}, at);
}

/* Lengthens b's run (the last node's text) by the `len` bytes the tree's
 * text has just gained, the first at byte `at`, each a character of its
 * own when `bytewise`; refuses the byte that takes the branch past the
 * bound on its expansion's bytes. */
static bool lengthen_run(struct parser *ps, struct branch *b, size_t len, size_t at, bool bytewise)
{
	struct node *run = &ps->t->nodes[b->run];
	uint64_t head_bytes = 0, head_count = 1;
	if (b->head != NO_NODE) {
		head_bytes = node_at(ps, b->head)->bytes;
		head_count = node_at(ps, b->head)->count;
	}
	uint64_t room = head_bytes > REGEX_MAX_BYTES ? 0
			: head_count ? (REGEX_MAX_BYTES - head_bytes) / head_count : UINT64_MAX;
	if (run->b + len > room) {
		regex_refuse(ps, bytewise ? at + (room - run->b) : at, "an expansion past the bound",
			     REFUSE_BOUND);
		return false;
	}
	run->b += (uint32_t)len;
	run->bytes += (uint32_t)len;
	return true;
}

/* Ends b's run: it joins the head. */
bool regex_branch_end(struct parser *ps, struct branch *b, size_t at)
{
	if (b->run != NO_NODE)
		b->head = b->head == NO_NODE ? b->run : regex_cat(ps, b->head, b->run, at);
	b->run = NO_NODE;
	return b->head != NO_NODE;
}

/* Adds the string text[off .. off+len), made for the text at byte `at`
 * (each byte a character of its own when `bytewise`), to the end of b. */
bool regex_branch_string(struct parser *ps, struct branch *b, uint32_t off, size_t len, size_t at,
			  bool bytewise)
{
	const struct node *run = b->run != NO_NODE ? node_at(ps, b->run) : NULL;
	if (!run || run->a + run->b != off) {
		if (b->run != NO_NODE && !regex_branch_end(ps, b, at))
			return false;
		b->run = regex_node(ps, (struct node){ .kind = NODE_STRING, .a = off, .count = 1 }, at);
		if (b->run == NO_NODE)
			return false;
	}
	return lengthen_run(ps, b, len, at, bytewise);
}

/* Adds node a, made for the text at byte `at`, to the end of b. */
bool regex_branch_add(struct parser *ps, struct branch *b, uint32_t a, size_t at)
{
	struct regex_tree *t = ps->t;
	const struct node *n = node_at(ps, a);
	if (n->kind == NODE_STRING && a + 1 == t->n) {
		uint32_t off = n->a, len = n->b;
		t->n--; /* its text joins b's run, or starts one */
		if (off < t->pattern_len) { /* a group's plain branch: after the text, as any string */
			off = regex_add_text(ps, ps->p + off, len);
			if (off == UINT32_MAX) {
				regex_oom(ps);
				return false;
			}
		}
		return regex_branch_string(ps, b, off, len, at, false);
	}
	if (b->run != NO_NODE && !regex_branch_end(ps, b, at))
		return false;
	b->head = b->head == NO_NODE ? a : regex_cat(ps, b->head, a, at);
	return b->head != NO_NODE;
}

void regex_tree_free(struct regex_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->ranges);
	free(t->text);
	free(t->kids);
	free(t);
}

bool regex_tree_is_of(const struct regex_tree *t, const char *p, size_t len)
{
	return t->pattern_len == len && (len == 0 || memcmp(t->text, p, len) == 0);
}

/* Shrinks the realloc'd array *p of *cap elements to n (at least one);
 * returns its bytes. */
static size_t trim_array(void **p, size_t *cap, size_t n, size_t elem)
{
	size_t keep = n ? n : 1;
	void *np = *p && keep < *cap ? realloc(*p, keep * elem) : NULL;
	if (np) {
		*p = np;
		*cap = keep;
	}
	return *p ? *cap * elem : 0;
}

size_t regex_tree_trim(struct regex_tree *t)
{
	void *nodes = t->nodes, *ranges = t->ranges, *text = t->text, *kids = t->kids;
	size_t held = sizeof *t + trim_array(&nodes, &t->cap, t->n, sizeof *t->nodes) +
		      trim_array(&ranges, &t->cap_ranges, t->n_ranges, sizeof *t->ranges) +
		      trim_array(&text, &t->text_cap, t->text_len, 1) +
		      trim_array(&kids, &t->cap_kids, t->n_kids, sizeof *t->kids);
	t->nodes = nodes;
	t->ranges = ranges;
	t->text = text;
	t->kids = kids;
	return held;
}
