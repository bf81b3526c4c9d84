/* SPDX-License-Identifier: MIT */
/* pattern_field.c - the pattern field of an output line (see
 * pattern_field.h).
 *
 * --show-all-patterns tells names apart with a stamp per name (a tag, or
 * a pattern): a name is written when its stamp is not the line's, so a
 * line costs nothing beyond its matches, whatever the number of patterns.
 */
#include "pattern_field.h"
#include "search/only_matching.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pattern_field_init(struct pattern_field *pf, const struct print_options *opt,
		       const struct matcher *m, const struct pattern_keys *keys)
{
	*pf = (struct pattern_field){
		.keys = keys,
		.matcher = m,
		.what = opt->show_pattern,
		.all = opt->show_all_patterns,
		.overlapping = opt->show_all_patterns && opt->overlapping,
		.eol = opt->eol,
	};
	if (!pf->all)
		return 0;
	/* names are tags (at most one per pattern) or patterns */
	pf->n_seen = keys->text.count > keys->n_keys ? keys->text.count : keys->n_keys;
	pf->seen = calloc(pf->n_seen ? pf->n_seen : 1, sizeof *pf->seen);
	return pf->seen ? 0 : -1;
}

void pattern_field_free(struct pattern_field *pf)
{
	free(pf->seen);
	pf->seen = NULL;
}

/* One field being written. */
struct field_write {
	struct pattern_field *pf;
	pattern_field_put put;
	void *ctx;
	struct printed_line line;
	uint32_t first;    /* the pattern of the line's first match at all */
	bool named;        /* some name was written */
};

/* Writes the name of `pattern`, after a ',' when it is not the first, and
 * unless (--show-all-patterns) the line named it already. */
static void write_name(struct field_write *fw, uint32_t pattern)
{
	struct pattern_field *pf = fw->pf;
	if (pattern >= pf->keys->text.count)
		return; /* MATCHER_NO_PATTERN: an engine that cannot tell */
	if (pf->all) {
		uint32_t key = pf->what == SHOW_PATTERN_TAG ? pattern_keys_key(pf->keys, pattern) : pattern;
		if (pf->seen[key] == pf->stamp)
			return;
		pf->seen[key] = pf->stamp;
	}
	struct pattern name;
	uint64_t number;
	pattern_keys_name(pf->keys, pattern, pf->what, &name, &number);
	if (fw->named)
		fw->put(fw->ctx, ",", 1);
	fw->named = true;
	if (pf->what == SHOW_PATTERN_NUMBER) {
		char digits[24];
		int n = snprintf(digits, sizeof digits, "%" PRIu64, number);
		fw->put(fw->ctx, digits, (size_t)n);
	} else {
		fw->put(fw->ctx, name.bytes, name.len);
	}
}

static int name_match(const struct matcher_hit *hit, bool takes_eol, void *ctx)
{
	struct field_write *fw = ctx;
	(void)takes_eol;
	write_name(fw, hit->pattern);
	return !fw->pf->all;
}

/* The matches grep -o prints (only_matching.h) name the line: its first,
 * or with --show-all-patterns every one. */
static int field_match(const struct matcher_hit *hit, void *ctx)
{
	struct field_write *fw = ctx;
	if (fw->first == MATCHER_NO_PATTERN)
		fw->first = hit->pattern;
	return printed_match_step(&fw->line, hit, name_match, fw);
}

void pattern_field_write(struct pattern_field *pf, const char *line, size_t len,
			 uint32_t pattern, pattern_field_put put, void *ctx)
{
	struct field_write fw = {
		.pf = pf, .put = put, .ctx = ctx, .first = MATCHER_NO_PATTERN,
	};
	if (pf->all && ++pf->stamp == 0) { /* the stamps wrapped: none is current */
		memset(pf->seen, 0, pf->n_seen * sizeof *pf->seen);
		pf->stamp = 1;
	}
	if (!line) {
		write_name(&fw, pattern);
		return;
	}
	if (len == 0)
		return;
	/* overlapping occurrences come by start too, the longest first */
	fw.line = printed_line_of(pf->matcher, line, len, pf->eol, pf->overlapping);
	printed_matches_scan(&fw.line, line, len, field_match, &fw);
	if (!fw.named) /* only matches -o leaves out: the line's first names it */
		write_name(&fw, fw.first);
}
