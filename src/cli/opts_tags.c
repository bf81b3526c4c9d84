/* SPDX-License-Identifier: MIT */
/* opts_tags.c - tagged pattern lists and the tags of the patterns (see
 * opts_tags.h).
 *
 * The tags are interned in a pat_builder of their own (each distinct tag
 * once, in order of first use) through an open-addressing hash table of
 * indices, kept at most half full: a list of a million lines loads in
 * linear time.  Tags are given in the patterns' order, so that "first
 * use" is the order of the list: the untagged patterns before a tagged
 * list are tagged when it is read, those after the last one at the end.
 */
#include "opts_tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "opts.h"
#include "opts_argv.h"

/* The patterns of a builder as a set, to read them with pattern_at. */
static struct pattern_set view_of(const struct pat_builder *pb)
{
	return (struct pattern_set){ .storage = pb->bytes, .end = pb->end, .count = pb->n };
}

/* FNV-1a, 64 bits. */
static uint64_t hash_bytes(const char *p, size_t len)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/* Doubles the hash table (or makes its first) and puts every name back. */
static bool rehash(struct tag_builder *tb)
{
	size_t n = tb->n_slots ? tb->n_slots * 2 : 64;
	if (n > SIZE_MAX / sizeof *tb->slots)
		return false;
	uint32_t *slots = calloc(n, sizeof *slots);
	if (!slots)
		return false;
	struct pattern_set names = view_of(&tb->names);
	for (size_t i = 0; i < names.count; i++) {
		struct pattern p = pattern_at(&names, i);
		size_t h = (size_t)hash_bytes(p.bytes, p.len) & (n - 1);
		while (slots[h])
			h = (h + 1) & (n - 1);
		slots[h] = (uint32_t)i + 1;
	}
	free(tb->slots);
	tb->slots = slots;
	tb->n_slots = n;
	return true;
}

/* The index of tag p[0..len) in tb->names, added when new.  False when
 * out of memory. */
static bool intern(struct tag_builder *tb, const char *p, size_t len, uint32_t *index)
{
	if ((tb->names.n + 1) * 2 > tb->n_slots && !rehash(tb))
		return false;
	struct pattern_set names = view_of(&tb->names);
	size_t mask = tb->n_slots - 1;
	for (size_t h = (size_t)hash_bytes(p, len) & mask;; h = (h + 1) & mask) {
		uint32_t s = tb->slots[h];
		if (!s) {
			if (tb->names.n >= UINT32_MAX - 1 || !opts_patterns_add_one(&tb->names, p, len))
				return false;
			tb->slots[h] = (uint32_t)tb->names.n;
			*index = (uint32_t)tb->names.n - 1;
			return true;
		}
		struct pattern q = pattern_at(&names, s - 1);
		if (q.len == len && memcmp(q.bytes, p, len) == 0) {
			*index = s - 1;
			return true;
		}
	}
}

/* Gives the next pattern the tag p[0..len).  False when out of memory. */
static bool tag_next(struct tag_builder *tb, const char *p, size_t len)
{
	uint32_t index;
	uint32_t *of = grow_array(tb->of, &tb->cap_of, tb->n_of + 1, sizeof *of, 64);
	if (!of)
		return false;
	tb->of = of;
	if (!intern(tb, p, len, &index))
		return false;
	tb->of[tb->n_of++] = index;
	return true;
}

/* Tags the patterns of `ps` from tb->n_of on with their own text. */
static bool tag_untagged(struct tag_builder *tb, const struct pattern_set *ps)
{
	while (tb->n_of < ps->count) {
		struct pattern p = pattern_at(ps, tb->n_of);
		if (!tag_next(tb, p.bytes, p.len))
			return false;
	}
	return true;
}

/* Why line[0..n) is no TAG<TAB>PATTERN line, or NULL; else the tag's
 * length in *tag_len and where the pattern starts in *pattern. */
static const char *split_line(const char *line, size_t n, size_t *tag_len, size_t *pattern)
{
	const char *tab = memchr(line, '\t', n);
	if (n > 0 && line[n - 1] == '\r')
		return "line ends in CR (CRLF line ends); convert the file with dos2unix";
	if (!tab)
		return "no TAB between tag and pattern";
	if (tab == line)
		return "empty tag";
	size_t at = (size_t)(tab - line);
	*tag_len = at;
	while (at < n && line[at] == '\t')
		at++;
	*pattern = at;
	return at == n ? "empty pattern" : NULL;
}

int opts_tags_read_file(struct tag_builder *tb, struct pat_builder *pb, const char *path)
{
	char *text;
	size_t len;
	if (opts_read_file(path, &text, &len) != 0)
		return 2;
	struct pattern_set before = view_of(pb);
	int status = tag_untagged(tb, &before) ? 0 : opts_oom();
	tb->active = true;
	uintmax_t lineno = 0;
	for (size_t at = 0; status == 0 && at < len;) {
		const char *line = text + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at, tag_len = 0, pattern = 0;
		at += n + 1;
		lineno++;
		/* comments and blank lines, as in IOC feeds and FastQC's list */
		if (n == 0 || line[0] == '#')
			continue;
		const char *why = split_line(line, n, &tag_len, &pattern);
		if (why) {
			fprintf(stderr, PROG ": %s:%ju: %s\n", path, lineno, why);
			status = 2;
		} else if (!opts_patterns_source(pb, path, lineno) ||
			   !opts_patterns_add_one(pb, line + pattern, n - pattern) ||
			   !tag_next(tb, line, tag_len)) {
			status = opts_oom();
		}
	}
	free(text);
	return status;
}

int opts_tags_finish(struct tag_builder *tb, struct config *cfg, bool no_pattern)
{
	if (no_pattern && cfg->show_pattern != SHOW_PATTERN_NONE) {
		tb->active = true;
		cfg->show_pattern = SHOW_PATTERN_TAG;
	}
	if (!tb->active)
		return 0;
	if (!tag_untagged(tb, &cfg->patterns))
		return opts_oom();
	opts_patterns_finish(&tb->names, &cfg->tags.names);
	cfg->tags.of = tb->of;
	tb->of = NULL;
	tb->n_of = tb->cap_of = 0;
	return 0;
}

void opts_tags_free(struct tag_builder *tb)
{
	opts_patterns_free(&tb->names);
	free(tb->of);
	free(tb->slots);
	*tb = (struct tag_builder){ .of = NULL };
}

void opts_tags_release(struct pattern_tags *tags)
{
	free(tags->names.storage);
	free(tags->names.end);
	free(tags->of);
	*tags = (struct pattern_tags){ .of = NULL };
}
