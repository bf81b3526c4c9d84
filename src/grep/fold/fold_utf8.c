/* SPDX-License-Identifier: MIT */
/* fold_utf8.c - GNU grep's -i relation in a UTF-8 locale, as a fold.
 *
 * Owns: decoding as mbrtowc does, the canonical form of each character
 * (towupper through a table for the BMP), folding patterns, and the DFA's
 * narrower relation.  fold_text.c folds the text.  See fold_utf8.h for
 * the relations themselves.
 */
#include "fold_utf8.h"

#include "fold_internal.h"

#include <stdlib.h>
#include <string.h>
#include <wctype.h>

/* Lowercase letters whose uppercase lowercases to another letter: grep's
 * case_folded_counterparts adds them to their uppercase letter's class. */
static const wchar_t lonesome_lower[] = {
	0x00B5, 0x0131, 0x017F, 0x01C5, 0x01C8, 0x01CB, 0x01F2, 0x0345, 0x03C2, 0x03D0,
	0x03D1, 0x03D5, 0x03D6, 0x03F0, 0x03F1, 0x03F2, 0x03F5, 0x1E9B, 0x1FBE,
};

static bool is_lonesome(wint_t c)
{
	for (size_t i = 0; i < sizeof lonesome_lower / sizeof *lonesome_lower; i++)
		if ((wint_t)lonesome_lower[i] == c)
			return true;
	return false;
}

/* grep's case_folded_counterparts: the characters other than c that its
 * DFA lets c match; returns how many (at most 2 + the lonesome ones). */
static int case_counterparts(wint_t c, wint_t out[24])
{
	int n = 0;
	wint_t uc = towupper(c), lc = towlower(uc);
	if (uc != c)
		out[n++] = uc;
	if (lc != uc && lc != c && towupper(lc) == uc)
		out[n++] = lc;
	for (size_t i = 0; i < sizeof lonesome_lower / sizeof *lonesome_lower; i++) {
		wint_t li = (wint_t)lonesome_lower[i];
		if (li != lc && li != uc && li != c && towupper(li) == uc)
			out[n++] = li;
	}
	return n;
}

bool fold_narrow_of(uint32_t c)
{
	wint_t u = towupper(c);
	return u != c && towlower(u) != c && !is_lonesome(c);
}

size_t fold_encode(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	size_t len = c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
	static const unsigned char lead[7] = { 0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC };
	for (size_t i = len - 1; i > 0; i--, c >>= 6)
		out[i] = (char)(0x80 | (c & 0x3F));
	out[0] = (char)(lead[len] | c);
	return len;
}

struct fold_table *fold_table_new(void)
{
	struct fold_table *t = malloc(sizeof *t);
	if (!t)
		return NULL;
	memset(t->narrow, 0, sizeof t->narrow);
	memset(t->to_ascii_lead, 0, sizeof t->to_ascii_lead);
	for (uint32_t c = 0; c < 0x80; c++) {
		t->upper[c] = (uint16_t)c;
		wint_t others[24];
		int n = case_counterparts(c, others);
		t->ascii_needs[c] = false;
		for (int i = 0; i < n; i++)
			t->ascii_needs[c] |= others[i] >= 0x80;
	}
	for (uint32_t c = 0x80; c < BMP; c++) {
		wint_t u = towupper(c);
		t->upper[c] = u < BMP ? (uint16_t)u : 0;
		if (u < 0x80) /* glibc has none outside the BMP */
			t->to_ascii_lead[c < 0x800 ? 0xC0 | c >> 6 : 0xE0 | c >> 12] = true;
		if (u != c && fold_narrow_of(c))
			t->narrow[c >> 3] |= (uint8_t)(1u << (c & 7));
	}
	return t;
}

void fold_table_free(struct fold_table *t)
{
	free(t);
}

size_t fold_decode(const unsigned char *s, size_t n, uint32_t *wc)
{
	uint32_t c = s[0], min;
	size_t len;
	if (c < 0x80) {
		*wc = c;
		return 1;
	}
	if (c < 0xC2)
		return 0;
	if (c < 0xE0)
		len = 2, c &= 0x1F, min = 0x80;
	else if (c < 0xF0)
		len = 3, c &= 0x0F, min = 0x800;
	else if (c < 0xF8)
		len = 4, c &= 0x07, min = 0x10000;
	else if (c < 0xFC)
		len = 5, c &= 0x03, min = 0x200000;
	else if (c < 0xFE)
		len = 6, c &= 0x01, min = 0x4000000;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*wc = c;
	return len;
}

/* towupper for the relation (ASCII included). */
static uint32_t rel_upper(const struct fold_table *t, uint32_t c)
{
	if (c < 0x80)
		return c >= 'a' && c <= 'z' ? c - 0x20 : c;
	return fold_upper_of(t, c);
}

size_t fold_pattern(const struct fold_table *t, const char *p, size_t len, char *out,
		    struct fold_facts *facts)
{
	const unsigned char *s = (const unsigned char *)p;
	*facts = (struct fold_facts){ .invalid = false };
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		uint32_t c;
		size_t l = fold_decode(s + i, len - i, &c);
		if (l == 0) {
			facts->invalid = facts->needs_fold = true;
			out[o++] = p[i++];
			continue;
		}
		if (c < 0x80) {
			facts->needs_fold |= t->ascii_needs[c];
			out[o++] = p[i++];
			continue;
		}
		wint_t others[24];
		facts->needs_fold |= c <= 0x10FFFF && case_counterparts((wint_t)c, others) > 0;
		facts->narrow |= fold_is_narrow(t, c);
		uint32_t u = fold_upper_of(t, c);
		if (u == c) {
			memcpy(out + o, p + i, l);
			o += l;
		} else {
			o += fold_encode(u, out + o);
		}
		i += l;
	}
	return o;
}

/* ---- the DFA's relation ---- */

bool fold_has_narrow(const struct fold_table *t, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		i += fold_ascii_run((const char *)u + i, n - i);
		if (i == n)
			break;
		uint32_t c;
		size_t l = fold_decode(u + i, n - i, &c);
		if (l && fold_is_narrow(t, c))
			return true;
		i += l ? l : 1;
	}
	return false;
}

/* Matches pattern p[0..plen) against s[i..n) character by character;
 * returns the end in s, or SIZE_MAX. */
static size_t dfa_prefix(const struct fold_table *t, const char *p, size_t plen, const char *s,
			 size_t n, size_t i)
{
	const unsigned char *pu = (const unsigned char *)p, *su = (const unsigned char *)s;
	for (size_t k = 0; k < plen;) {
		if (i >= n)
			return SIZE_MAX;
		uint32_t c, d;
		size_t lc = fold_decode(pu + k, plen - k, &c), ld = fold_decode(su + i, n - i, &d);
		if (lc == 0 || ld == 0) {
			if (lc || ld || pu[k] != su[i])
				return SIZE_MAX;
			k++;
			i++;
			continue;
		}
		if (c != d && (rel_upper(t, c) != rel_upper(t, d) || fold_is_narrow(t, d)))
			return SIZE_MAX;
		k += lc;
		i += ld;
	}
	return i;
}

bool fold_dfa_equal(const struct fold_table *t, const char *p, size_t plen, const char *s,
		    size_t n)
{
	return dfa_prefix(t, p, plen, s, n, 0) == n;
}

size_t fold_dfa_search(const struct fold_table *t, const char *p, size_t plen, const char *s,
		       size_t n, size_t from, bool anchored, bool to_end)
{
	for (size_t i = from; i <= n;) {
		size_t e = dfa_prefix(t, p, plen, s, n, i);
		if (e != SIZE_MAX && to_end && e != n)
			e = SIZE_MAX;
		if (e != SIZE_MAX || anchored || i == n)
			return e;
		uint32_t wc;
		size_t l = fold_decode((const unsigned char *)s + i, n - i, &wc);
		i += l ? l : 1;
	}
	return SIZE_MAX;
}

bool fold_is_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		i += fold_ascii_run((const char *)u + i, n - i);
		if (i == n)
			break;
		uint32_t c;
		size_t l = fold_decode(u + i, n - i, &c);
		if (l == 0)
			return false;
		i += l;
	}
	return true;
}
