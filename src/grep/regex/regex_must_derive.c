/* SPDX-License-Identifier: MIT */
/* regex_must_derive.c - GNU grep 3.8's derivation of the string every
 * match of a list holds (see regex_must.c).
 *
 * Owns: per postfix token, what grep's DFA knows of its matches: the
 * whole string when it is fixed ("" when not), the strings every match
 * holds, a known prefix and suffix, and whether it sits at a line start or
 * end; how a concatenation, an alternation and ? combine them (an inner
 * ^ or $ reads as the empty string); plain bytes merged into runs as
 * grep merges them; and whether the result is the whole of every match
 * with the list's anchors at its ends (grep's shortcut).
 */
#include "regex_must.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* Strings none of which holds another, in grep's order (ties between
 * the longest are taken first come). */
struct strlist {
	char **v;
	size_t n, cap;
};

/* What the derivation knows of a token's matches. */
struct must {
	struct strlist in; /* strings every match holds */
	char *left, *right; /* a known prefix and suffix ("" none; left may lag) */
	char *is;           /* every match is exactly this ("": not known) */
	bool bol, eol;      /* ... at a line start, at a line end */
};

struct eval {
	struct must *stack;
	size_t n, cap;
	bool oom;
};

#define S(x) ((x) ? (x) : "")

static char *str_join(struct eval *ev, const char *a, const char *b)
{
	size_t alen = strlen(a), blen = strlen(b);
	char *s = malloc(alen + blen + 1);
	if (!s) {
		ev->oom = true;
		return NULL;
	}
	memcpy(s, a, alen);
	memcpy(s + alen, b, blen + 1);
	return s;
}

static char *str_cut(struct eval *ev, const char *a, size_t len)
{
	char *s = malloc(len + 1);
	if (!s) {
		ev->oom = true;
		return NULL;
	}
	memcpy(s, a, len);
	s[len] = '\0';
	return s;
}

static void list_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct strlist){ .v = NULL };
}

/* Adds s (taken over) unless a string of l holds it; drops those it
 * holds, the last string moving into each one's place. */
static void list_add(struct eval *ev, struct strlist *l, char *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (strstr(l->v[i], s)) {
			free(s);
			return;
		}
	for (size_t j = 0; j < l->n;) {
		if (!strstr(s, l->v[j])) {
			j++;
			continue;
		}
		free(l->v[j]);
		if (j == --l->n)
			break;
		l->v[j] = l->v[l->n];
	}
	char **nv = grow_array(l->v, &l->cap, l->n + 1, sizeof *nv, 4);
	if (!nv) {
		ev->oom = true;
		free(s);
		return;
	}
	l->v = nv;
	l->v[l->n++] = s;
}

static void list_add_all(struct eval *ev, struct strlist *l, const struct strlist *from)
{
	for (size_t i = 0; i < from->n; i++)
		list_add(ev, l, str_join(ev, from->v[i], ""));
}

/* Adds to l the list of the longest strings a and b share, one per
 * start in a. */
static void list_add_common(struct eval *ev, struct strlist *l, const char *a, const char *b)
{
	struct strlist common = { .v = NULL };
	for (const char *lc = a; *lc; lc++) {
		size_t len = 0;
		for (const char *rc = strchr(b, *lc); rc; rc = strchr(rc + 1, *lc)) {
			size_t i = 1;
			while (lc[i] && lc[i] == rc[i])
				i++;
			len = i > len ? i : len;
		}
		if (len)
			list_add(ev, &common, str_cut(ev, lc, len));
	}
	list_add_all(ev, l, &common);
	list_free(&common);
}

static void must_free(struct must *m)
{
	list_free(&m->in);
	free(m->left);
	free(m->right);
	free(m->is);
}

/* Pushes a token whose matches are is (all of them, "" for none known). */
static struct must *push(struct eval *ev, const char *is)
{
	struct must *nv = grow_array(ev->stack, &ev->cap, ev->n + 1, sizeof *nv, 16);
	if (!nv) {
		ev->oom = true;
		return NULL;
	}
	ev->stack = nv;
	struct must *m = &ev->stack[ev->n++];
	*m = (struct must){ .left = str_join(ev, is, ""), .right = str_join(ev, is, ""),
			    .is = str_join(ev, is, "") };
	if (*is)
		list_add(ev, &m->in, str_join(ev, is, ""));
	return m;
}

static void replace(char **field, char *s)
{
	free(*field);
	*field = s;
}

/* l then r: l becomes their concatenation. */
static void must_cat(struct eval *ev, struct must *l, struct must *r)
{
	list_add_all(ev, &l->in, &r->in);
	if (*S(l->right) && *S(r->left))
		list_add(ev, &l->in, str_join(ev, l->right, r->left));
	if (*S(l->is))
		replace(&l->left, str_join(ev, S(l->left), S(r->left)));
	if (!*S(r->is))
		replace(&l->right, str_join(ev, "", ""));
	replace(&l->right, str_join(ev, S(l->right), S(r->right)));
	if ((*S(l->is) || l->bol) && (*S(r->is) || r->eol)) {
		replace(&l->is, str_join(ev, S(l->is), S(r->is)));
		l->eol = r->eol;
	} else {
		replace(&l->is, str_join(ev, "", ""));
		l->bol = l->eol = false;
	}
}

/* l or r: l becomes what both guarantee. */
static void must_or(struct eval *ev, struct must *l, struct must *r)
{
	if (strcmp(S(l->is), S(r->is)) == 0) {
		l->bol = l->bol && r->bol;
		l->eol = l->eol && r->eol;
	} else {
		replace(&l->is, str_join(ev, "", ""));
		l->bol = l->eol = false;
	}
	size_t i = 0;
	const char *ll = S(l->left), *rl = S(r->left);
	while (ll[i] && ll[i] == rl[i])
		i++;
	replace(&l->left, str_cut(ev, ll, i));
	const char *lr = S(l->right), *rr = S(r->right);
	size_t ln = strlen(lr), rn = strlen(rr), n = ln < rn ? ln : rn;
	for (i = 0; i < n && lr[ln - i - 1] == rr[rn - i - 1]; i++)
		continue;
	replace(&l->right, str_cut(ev, lr + ln - i, i));
	struct strlist both = { .v = NULL };
	for (size_t a = 0; a < l->in.n; a++)
		for (size_t b = 0; b < r->in.n; b++)
			list_add_common(ev, &both, l->in.v[a], r->in.v[b]);
	list_free(&l->in);
	l->in = both;
}

/* The string of the plain bytes merged from token *ri on (grep merges a
 * byte that a concatenation follows with the plain bytes each followed
 * by one); *ri is left at the last. */
static char *merged_run(struct eval *ev, const struct tok *v, size_t n, size_t *ri)
{
	size_t from = *ri, rj = from + 2;
	if (from + 1 < n && v[from + 1].kind == T_CAT)
		while (rj + 1 < n && v[rj].kind == T_CHAR && v[rj].c && v[rj + 1].kind == T_CAT)
			rj += 2;
	char *s = malloc((rj - from) / 2 + 1);
	if (!s) {
		ev->oom = true;
		return NULL;
	}
	size_t len = 0;
	for (size_t k = from; k < rj; k += 2)
		s[len++] = (char)v[k].c;
	s[len] = '\0';
	*ri = rj - 2;
	return s;
}

/* The derivation over v[0..n) into ev: true and *out when the shortcut
 * applies. */
static bool derive(struct eval *ev, const struct tok *v, size_t n, struct regex_must *out)
{
	bool need_bol = false, need_eol = false;
	for (size_t ri = 0; ri < n && !ev->oom; ri++) {
		struct must *m, *l, *r;
		switch ((enum tok_kind)v[ri].kind) {
		case T_CHAR: case T_SET: {
			char *run = merged_run(ev, v, n, &ri);
			if (run)
				push(ev, run);
			free(run);
			break;
		}
		case T_OPAQUE: case T_BOL: case T_EOL:
			if ((m = push(ev, ""))) {
				m->bol = v[ri].kind == T_BOL;
				m->eol = v[ri].kind == T_EOL;
			}
			need_bol = need_bol || v[ri].kind == T_BOL;
			need_eol = need_eol || v[ri].kind == T_EOL;
			break;
		case T_QMARK:
			if (ev->n < 1) {
				ev->oom = true; /* not postfix: never */
				break;
			}
			m = &ev->stack[ev->n - 1];
			must_free(m);
			*m = (struct must){ .bol = false };
			break;
		case T_CAT: case T_OR:
			if (ev->n < 2) {
				ev->oom = true; /* not postfix: never */
				break;
			}
			l = &ev->stack[ev->n - 2];
			r = &ev->stack[ev->n - 1];
			(v[ri].kind == T_CAT ? must_cat : must_or)(ev, l, r);
			must_free(r);
			ev->n--;
			break;
		}
	}
	if (ev->oom || ev->n != 1)
		return false;
	const struct must *m = &ev->stack[0];
	const char *result = "";
	for (size_t i = 0; i < m->in.n; i++)
		if (strlen(m->in.v[i]) > strlen(result))
			result = m->in.v[i];
	if (!*result || strcmp(result, S(m->is)) != 0 || (need_bol && !m->bol) ||
	    (need_eol && !m->eol))
		return false;
	out->len = strlen(result);
	out->anchors = (m->bol ? REGEX_BOL : 0) | (m->eol ? REGEX_EOL : 0);
	out->bytes = str_join(ev, result, "");
	return out->bytes != NULL;
}

bool regex_must_derive(const struct tok *v, size_t n, struct regex_must *out, bool *oom)
{
	struct eval ev = { .stack = NULL };
	bool found = derive(&ev, v, n, out);
	for (size_t i = 0; i < ev.n; i++)
		must_free(&ev.stack[i]);
	free(ev.stack);
	*oom = ev.oom;
	return found && !ev.oom;
}
