/* SPDX-License-Identifier: MIT */
/* json_text.h - bytes as JSON values, written into an output buffer.
 *
 * Owns: ripgrep's encoding of arbitrary bytes in its --json records:
 * {"text":"..."} when they are valid UTF-8 (RFC 3629: no overlong form,
 * no surrogate, nothing past U+10FFFF), with serde_json's escapes (\" \\
 * \b \f \n \r \t, every other byte below 0x20 as \u00xx, everything else
 * as it is), else {"bytes":"..."} holding them in standard base64 with
 * padding; and decimal numbers.  Writes into an output buffer (outbuf.h),
 * a reservation at a time: long texts are encoded in parts, never copied
 * whole.
 */
#ifndef ACGREP_JSON_TEXT_H
#define ACGREP_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"
#include "print.h"

/* Most input bytes encoded by one reservation: their encoding (at most 6
 * bytes each, and a vector store's overrun) is a reservation outbuf_reserve
 * takes (at most OUTBUF_SIZE). */
#define JSON_PART 4096

/* At most the bytes json_put_text writes for n input bytes (and the slack
 * its 16-byte stores may overrun). */
static inline size_t json_text_max(size_t n)
{
	return 6 * n + 48;
}

/* Whether p[0..n) is valid UTF-8. */
bool json_utf8_valid(const char *p, size_t n);

/* Writes p[0..n) as a JSON value at o, {"text":...} or {"bytes":...}, and
 * returns the position after it; o has room for json_text_max(n) bytes. */
char *json_put_text(char *o, const char *p, size_t n);

/* Appends p[0..n) as a JSON value, in parts when long. */
void json_text(struct outbuf *out, const char *p, size_t n);

/* Appends the bytes s[0..n) as they are (JSON already). */
static inline void json_raw(struct outbuf *out, const char *s, size_t n)
{
	outbuf_append(out, s, n);
}

/* Writes v in decimal at o (room for PRINTER_DECIMAL_MAX bytes) and
 * returns the end: small numbers (a submatch's bounds, a pattern's
 * number) inline. */
static inline char *json_put_u64(char *o, uint64_t v)
{
	if (v < 10) {
		*o = (char)('0' + v);
		return o + 1;
	}
	if (v < 100) {
		o[0] = (char)('0' + v / 10);
		o[1] = (char)('0' + v % 10);
		return o + 2;
	}
	return printer_decimal(o, v);
}

/* Appends v in decimal. */
static inline void json_u64(struct outbuf *out, uint64_t v)
{
	outbuf_commit(out, json_put_u64(outbuf_reserve(out, PRINTER_DECIMAL_MAX), v));
}

#endif
