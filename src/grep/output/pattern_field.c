/* pattern_field.c - the pattern field of an output line (see
 * pattern_field.h).
 *
 * --show-all-patterns tells names apart with a stamp per name (a tag, or
 * a pattern): a name is written when its stamp is not the line's, so a
 * line costs nothing beyond its matches, whatever the number of patterns.
 */
#include "pattern_field.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pattern_field_init(struct pattern_field *pf, const struct config *cfg,
		       const struct matcher *m, const struct pattern_keys *keys)
{
	*pf = (struct pattern_field){
		.keys = keys,
		.matcher = m,
		.what = cfg->show_pattern,
		.all = cfg->show_all_patterns,
		.overlapping = cfg->show_all_patterns && cfg->overlapping,
		.eol = config_eol(cfg),
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
	size_t content;    /* the line's length without its terminator */
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

/* The matches grep -o prints (as search_lines.c's output_match takes
 * them): not the empty ones, none past the line's content but a
 * whole-line match taking its terminator (matcher.match_takes_eol). */
static int field_match(const struct matcher_hit *hit, void *ctx)
{
	struct field_write *fw = ctx;
	bool takes_eol = fw->pf->matcher->match_takes_eol && hit->end == fw->content;
	if (fw->first == MATCHER_NO_PATTERN)
		fw->first = hit->pattern;
	if (hit->start >= fw->content && !takes_eol)
		return 1;
	if (hit->end == hit->start && !takes_eol)
		return 0;
	write_name(fw, hit->pattern);
	return !fw->pf->all || takes_eol;
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
	fw.content = len - (line[len - 1] == pf->eol);
	/* overlapping occurrences come by start too, the longest first */
	if (pf->overlapping)
		matcher_each_overlapping(pf->matcher, line, len, 0, field_match, &fw);
	else
		matcher_each(pf->matcher, line, len, 0, field_match, &fw);
	if (!fw.named) /* only matches -o leaves out: the line's first names it */
		write_name(&fw, fw.first);
}
