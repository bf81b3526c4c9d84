/* SPDX-License-Identifier: MIT */
/* fuzz_compiled.c - libFuzzer target: loading compiled pattern sets
 * (matcher_load_image: secfile.c, ac_file.c, matcher_file*.c) from any
 * bytes, and searching with whatever loads.
 *
 * Owns: decoding a fuzz input into search options and a file image;
 * loading it; and, when it loads, the queries a search makes of the
 * matcher (matcher_find exact and not from several offsets, matcher_each,
 * matcher_identify of each listed pattern, pattern_keys over the list
 * and tags views, every pattern's tag and name) over a text made of the
 * set's own patterns and fixed bytes.  A
 * refused image must come with a message; an accepted one must answer
 * every query with matches inside the text naming patterns of its list,
 * and never read outside the image (ASan) or loop.  Most changed bytes
 * fail the checksum: with the reseal bit the checksum is recomputed
 * first (secfile_reseal), so the checks behind it are what is fuzzed.
 *
 * Input layout:
 *   byte 0  options: bit 0 -i, 1 -w, 2 -x, 3 -z, 4 UTF-8 locale (C.UTF-8,
 *           else C), 5 --binary-files=text, 6 reseal the checksum, 7 the
 *           scalar kernels (--simd=scalar)
 *   then the image of a compiled pattern set (seeds: tests/fuzz/corpus/
 *   compiled/, from tests/fuzz/mkseeds-compiled.sh).
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ac.h"
#include "fuzz_target.h"
#include "match/matcher.h"
#include "compiled/matcher_file.h"
#include "match/pattern_keys.h"
#include "secfile.h"

enum {
	OPT_I = 1, OPT_W = 2, OPT_X = 4, OPT_Z = 8, OPT_UTF8 = 16, OPT_TEXT = 32, RESEAL = 64,
	SCALAR = 128,
};

static const char fixed[] = "foo bar\nHe said: she, his, hers.\n\xc3\xa9t\xc3\xa9 \xe1\xb2\x80x\n"
			    "a\0b c\nSTRASSE stra\xc3\x9f" "e\n\n  x";

static bool have_utf8;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	have_utf8 = setlocale(LC_ALL, "C.UTF-8") != NULL;
	setlocale(LC_ALL, "C");
	return 0;
}

/* The text searched: the first patterns of the list, then the fixed bytes. */
static size_t make_text(const struct pattern_set *list, char *text, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < list->count && i < 16; i++) {
		struct pattern p = pattern_at(list, i);
		if (n + p.len + 2 + sizeof fixed > cap)
			break;
		memcpy(text + n, p.bytes, p.len);
		n += p.len;
		text[n++] = " \n\0"[i % 3];
	}
	memcpy(text + n, fixed, sizeof fixed - 1);
	return n + sizeof fixed - 1;
}

static void check_hit(const struct matcher_hit *h, size_t from, size_t len, size_t count)
{
	if (h->start > h->end || h->end > len || h->start < from ||
	    (h->pattern != MATCHER_NO_PATTERN && h->pattern >= count)) {
		fprintf(stderr, "match [%zu, %zu) pattern %u: text %zu bytes from %zu, %zu patterns\n",
			h->start, h->end, h->pattern, len, from, count);
		abort();
	}
}

struct each_ctx {
	size_t len, count, n;
};

static int each_cb(const struct matcher_hit *h, void *ctx)
{
	struct each_ctx *c = ctx;
	check_hit(h, 0, c->len, c->count);
	return ++c->n > 4096; /* enough: an empty pattern matches everywhere */
}

/* What --show-pattern prints for pattern i, read through (ASan checks the
 * names lie in the image); a row past the keys aborts. */
static void names_of(const struct pattern_keys *k, uint32_t i)
{
	static const enum show_pattern whats[] = { SHOW_PATTERN_TAG, SHOW_PATTERN_TEXT,
						   SHOW_PATTERN_NUMBER };
	if (pattern_keys_key(k, i) >= k->n_keys)
		abort();
	for (size_t w = 0; w < sizeof whats / sizeof *whats; w++) {
		struct pattern name;
		uint64_t number;
		pattern_keys_name(k, i, whats[w], &name, &number);
		volatile unsigned char sum = 0;
		for (size_t b = 0; b < name.len; b++)
			sum ^= (unsigned char)name.bytes[b];
		(void)sum;
	}
}

/* The queries of a search over the loaded matcher, and its tags. */
static void search(const struct matcher_spec *spec, const struct matcher *m,
		   const struct pattern_set *list, const struct pattern_tags *tags)
{
	static char text[4096];
	size_t len = make_text(list, text, sizeof text);
	for (size_t from = 0; from <= len; from += 1 + len / 9)
		for (int exact = 0; exact < 2; exact++) {
			struct matcher_hit h;
			if (matcher_find_hit(m, text, len, from, exact, &h))
				check_hit(&h, from, len, list->count);
		}
	struct each_ctx c = { .len = len, .count = list->count };
	matcher_each(m, text, len, 0, each_cb, &c);
	struct pattern_keys keys;
	if (pattern_keys_init(&keys, list, tags, spec->syntax) == 0) {
		pattern_keys_link(&keys, m);
		for (size_t i = 0; i < list->count; i++) {
			if (keys.first[i] > i)
				abort();
			names_of(&keys, (uint32_t)i);
		}
	}
	pattern_keys_free(&keys);
	matcher_take_failure();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned o = data[0];
	if ((o & OPT_UTF8) && !have_utf8)
		return 0;
	size_t n = size - 1;
	uint8_t *img = aligned_alloc(64, (n + 64) & ~(size_t)63);
	if (!img)
		abort();
	memcpy(img, data + 1, n);
	if (o & RESEAL)
		secfile_reseal(img, n);
	setlocale(LC_ALL, (o & OPT_UTF8) ? "C.UTF-8" : "C");
	struct matcher_spec spec = {
		.ignore_case = o & OPT_I, .word = o & OPT_W, .line = o & OPT_X,
		.eol = (o & OPT_Z) ? '\0' : '\n', .utf8 = o & OPT_UTF8,
		.binary_text = o & OPT_TEXT, .engine = ENGINE_AC,
		.simd = (o & SCALAR) ? SIMD_SCALAR : SIMD_BEST,
	};
	char why[256] = "";
	struct pattern_set list;
	struct pattern_tags tags;
	struct matcher *m = matcher_load_image(&spec, img, n, &list, &tags, why, sizeof why);
	if (!m && !why[0]) {
		fprintf(stderr, "refused without a message\n");
		abort();
	}
	if (m) {
		spec.syntax = matcher_file_syntax(m); /* as the CLI takes it: the keys depend on it */
		search(&spec, m, &list, &tags);
	}
	matcher_free(m);
	free(img);
	setlocale(LC_ALL, "C");
	return 0;
}
