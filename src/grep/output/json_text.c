/* SPDX-License-Identifier: MIT */
/* json_text.c - bytes as JSON values (see json_text.h).
 *
 * Text is copied with its escapes and checked for UTF-8 in one pass: with
 * SSE2 sixteen bytes are stored at once and the output goes back to the
 * first byte that needs a look (a control character, '"', '\\', or one
 * from 0x80 on, which starts a sequence to check); elsewhere a table says
 * per byte.  Text that turns out not to be UTF-8 is written over in
 * base64.  A text too long for one reservation is checked first, then
 * encoded in parts.
 */
#include "json_text.h"

#include <string.h>

#include "bits.h"

#if defined(__SSE2__) && !defined(ACGREP_NO_SIMD)
#include <emmintrin.h>
#define JSON_SSE2 1
#endif

/* Length of the ASCII run at the start of p[0..n). */
static size_t ascii_prefix(const unsigned char *p, size_t n)
{
	size_t i = 0;
#ifdef JSON_SSE2
	for (; n - i >= 16; i += 16) {
		int high = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i)));
		if (high)
			return i + (size_t)ctz64((uint64_t)(unsigned)high);
	}
#else
	uint64_t w;
	while (n - i >= 8 && (memcpy(&w, p + i, 8), (w & UINT64_C(0x8080808080808080)) == 0))
		i += 8;
#endif
	while (i < n && p[i] < 0x80)
		i++;
	return i;
}

/* The length of the UTF-8 sequence at p[0..n) (p[0] >= 0x80), or 0 when
 * it is not valid there. */
static size_t utf8_sequence(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (c < 0xc2 || c > 0xf4 || n < len)
		return 0;
	/* the second byte's range rules out overlong forms, surrogates and
	 * code points past U+10FFFF */
	unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

bool json_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	for (;;) {
		i += ascii_prefix(p + i, n - i);
		if (i == n)
			return true;
		size_t len = utf8_sequence(p + i, n - i);
		if (!len)
			return false;
		i += len;
	}
}

/* Per byte: 0 copied as it is, 'u' written as \u00xx, else the letter of
 * its short escape. */
static const char escape_of[256] = {
	['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
	[0] = 'u', [1] = 'u', [2] = 'u', [3] = 'u', [4] = 'u', [5] = 'u', [6] = 'u', [7] = 'u',
	[11] = 'u', [14] = 'u', [15] = 'u', [16] = 'u', [17] = 'u', [18] = 'u', [19] = 'u',
	[20] = 'u', [21] = 'u', [22] = 'u', [23] = 'u', [24] = 'u', [25] = 'u', [26] = 'u',
	[27] = 'u', [28] = 'u', [29] = 'u', [30] = 'u', [31] = 'u',
	['"'] = '"', ['\\'] = '\\',
};

/* Writes byte c (escape_of[c] != 0) escaped at o. */
static char *put_escape(char *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e = escape_of[c];
	*o++ = '\\';
	if (e != 'u') {
		*o++ = e;
		return o;
	}
	memcpy(o, "u00", 3);
	o[3] = hex[c >> 4];
	o[4] = hex[c & 15];
	return o + 5;
}

/* Writes the byte at p[*i] and moves *i past what it wrote: an escape, a
 * UTF-8 sequence (checked with `check`: NULL when it is not one), or the
 * byte itself. */
static inline char *put_byte(char *o, const unsigned char *p, size_t n, size_t *i, bool check)
{
	unsigned char c = p[*i];
	if (c >= 0x80 && check) {
		size_t len = utf8_sequence(p + *i, n - *i);
		if (!len)
			return NULL;
		memcpy(o, p + *i, len);
		*i += len;
		return o + len;
	}
	(*i)++;
	if (escape_of[c])
		return put_escape(o, c);
	*o = (char)c;
	return o + 1;
}

/* Writes the string body of p[0..n) at o, escaped, and returns its end.
 * With `check`, NULL at the first byte that is not valid UTF-8 (what was
 * written is then to be dropped); without, bytes from 0x80 are copied as
 * they are (the text was checked already, or is a part of one). */
static char *put_escaped(char *o, const unsigned char *p, size_t n, bool check)
{
	size_t i = 0;
#ifdef JSON_SSE2
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i space_less_1 = _mm_set1_epi8(0x1f);
	while (o && n - i >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, space_less_1), v);
		__m128i special = _mm_or_si128(control, _mm_or_si128(_mm_cmpeq_epi8(v, quote),
								      _mm_cmpeq_epi8(v, backslash)));
		int mask = _mm_movemask_epi8(special) | (check ? _mm_movemask_epi8(v) : 0);
		_mm_storeu_si128((__m128i *)(void *)o, v);
		if (!mask) {
			o += 16;
			i += 16;
			continue;
		}
		size_t k = (size_t)ctz64((uint64_t)(unsigned)mask);
		i += k;
		o = put_byte(o + k, p, n, &i, check);
	}
#endif
	while (o && i < n)
		o = put_byte(o, p, n, &i, check);
	return o;
}

/* Writes p[0..n) in base64 at o (n a multiple of 3 unless it is the end). */
static char *put_base64(char *o, const unsigned char *p, size_t n)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i = 0;
	for (; n - i >= 3; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		o[0] = digits[v >> 18];
		o[1] = digits[v >> 12 & 63];
		o[2] = digits[v >> 6 & 63];
		o[3] = digits[v & 63];
		o += 4;
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (n - i > 1 ? (uint32_t)p[i + 1] << 8 : 0);
		o[0] = digits[v >> 18];
		o[1] = digits[v >> 12 & 63];
		o[2] = n - i > 1 ? digits[v >> 6 & 63] : '=';
		o[3] = '=';
		o += 4;
	}
	return o;
}

#define TEXT_OPEN "{\"text\":\""
#define BYTES_OPEN "{\"bytes\":\""

char *json_put_text(char *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	memcpy(o, TEXT_OPEN, sizeof TEXT_OPEN - 1);
	char *e = put_escaped(o + sizeof TEXT_OPEN - 1, p, n, true);
	if (!e) { /* not UTF-8: over again, as bytes */
		memcpy(o, BYTES_OPEN, sizeof BYTES_OPEN - 1);
		e = put_base64(o + sizeof BYTES_OPEN - 1, p, n);
	}
	memcpy(e, "\"}", 2);
	return e + 2;
}

void json_text(struct outbuf *out, const char *s, size_t n)
{
	if (n <= JSON_PART) {
		outbuf_commit(out, json_put_text(outbuf_reserve(out, json_text_max(n)), s, n));
		return;
	}
	const unsigned char *p = (const unsigned char *)s;
	bool text = json_utf8_valid(s, n);
	json_raw(out, text ? TEXT_OPEN : BYTES_OPEN, text ? sizeof TEXT_OPEN - 1 : sizeof BYTES_OPEN - 1);
	/* parts of a multiple of 3 bytes, so that base64 pads only at the end */
	const size_t part = JSON_PART / 3 * 3;
	for (size_t i = 0; i < n; i += part) {
		size_t k = n - i < part ? n - i : part;
		char *o = outbuf_reserve(out, json_text_max(k));
		outbuf_commit(out, text ? put_escaped(o, p + i, k, false) : put_base64(o, p + i, k));
	}
	json_raw(out, "\"}", 2);
}
