/* json_text.h - bytes as JSON values, written into a printer's buffer.
 *
 * Owns: ripgrep's encoding of arbitrary bytes in its --json records:
 * {"text":"..."} when they are valid UTF-8 (RFC 3629: no overlong form,
 * no surrogate, nothing past U+10FFFF), with serde_json's escapes (\" \\
 * \b \f \n \r \t, every other byte below 0x20 as \u00xx, everything else
 * as it is), else {"bytes":"..."} holding them in standard base64 with
 * padding; and decimal numbers.  Writes into the printer's buffer, a
 * reservation at a time: long texts are encoded in parts, never copied
 * whole.
 */
#ifndef ACGREP_JSON_TEXT_H
#define ACGREP_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "print.h"

/* Most input bytes encoded by one reservation: their encoding (at most 6
 * bytes each, and a vector store's overrun) fits in any printer's buffer. */
#define JSON_PART 4096

/* At most the bytes json_put_text writes for n input bytes (and the slack
 * its 16-byte stores may overrun). */
static inline size_t json_text_max(size_t n)
{
	return 6 * n + 48;
}

/* Room for n bytes (at most the printer's buffer: n <= JSON_PART's
 * json_text_max) at the end of pr's buffer, which is flushed first when
 * needed.  The caller writes there and adds what it wrote to pr->len. */
static inline char *json_room(struct printer *pr, size_t n)
{
	if (pr->cap - pr->len < n)
		printer_flush(pr);
	return pr->buf + pr->len;
}

/* Whether p[0..n) is valid UTF-8. */
bool json_utf8_valid(const char *p, size_t n);

/* Writes p[0..n) as a JSON value at o, {"text":...} or {"bytes":...}, and
 * returns the position after it; o has room for json_text_max(n) bytes. */
char *json_put_text(char *o, const char *p, size_t n);

/* Appends p[0..n) as a JSON value to pr's buffer, in parts when long. */
void json_text(struct printer *pr, const char *p, size_t n);

/* Appends the bytes s[0..n) as they are (JSON already). */
static inline void json_raw(struct printer *pr, const char *s, size_t n)
{
	printer_append(pr, s, n);
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
static inline void json_u64(struct printer *pr, uint64_t v)
{
	char *o = json_room(pr, PRINTER_DECIMAL_MAX);
	pr->len += (size_t)(json_put_u64(o, v) - o);
}

#endif
