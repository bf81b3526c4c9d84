/* SPDX-License-Identifier: MIT */
/* regex_must.h - what regex_must.c (grep's tokens for a list) hands
 * regex_must_derive.c (the derivation over them).
 */
#ifndef ACGREP_REGEX_MUST_H
#define ACGREP_REGEX_MUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "regex.h"

/* Postfix tokens, as grep's DFA parser makes them. */
enum tok_kind {
	T_CHAR,   /* a plain byte: merges with plain bytes that follow */
	T_SET,    /* a bracket (or -i letter) of one byte: starts a merge only */
	T_OPAQUE, /* anything else: no string known */
	T_BOL, T_EOL, T_CAT, T_OR, T_QMARK,
};

struct tok {
	uint8_t kind;
	unsigned char c;
};

/* Runs grep's derivation over the postfix tokens v[0..n): true with
 * *out (out->bytes from malloc) when its shortcut applies; false, with
 * *oom set when memory ran out. */
bool regex_must_derive(const struct tok *v, size_t n, struct regex_must *out, bool *oom);

#endif
