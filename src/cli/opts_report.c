/* SPDX-License-Identifier: MIT */
/* opts_report.c - the options of acgrep's own reports (see opts_report.h).
 */
#include "opts_report.h"

#include <stdio.h>

#include "opts.h"
#include "opts_argv.h"

/* How --count-per-pattern, --include-zero, --overlapping and
 * --all-patterns combine with grep's options (man/acgrep.1 says the
 * same): they need the engine that names patterns; -q, -l and -L
 * override --count-per-pattern as they override -c, and it overrides -c,
 * --count-matches and -o; with it -v lists the keys not seen, so the
 * search itself is not inverted.  Returns -1, or 2 after the message. */
static int per_pattern_finish(struct config *cfg)
{
	const char *needs_ac = cfg->count_per_pattern ? "--count-per-pattern"
			       : cfg->all_patterns    ? "--all-patterns"
			       : cfg->overlapping     ? "--overlapping"
						      : NULL;
	if (needs_ac && cfg->engine != ENGINE_AC) {
		fprintf(stderr, PROG ": %s needs --engine=ac\n", needs_ac);
		return 2;
	}
	if (cfg->include_zero && !cfg->count_per_pattern) {
		fputs(PROG ": --include-zero needs --count-per-pattern\n", stderr);
		return 2;
	}
	if (config_reports_files(cfg))
		cfg->count_per_pattern = cfg->include_zero = false;
	if (cfg->count_per_pattern) {
		cfg->count = cfg->count_matches = cfg->only_matching = false;
		cfg->count_unseen = cfg->invert;
		cfg->invert = false;
	}
	return -1;
}

/* --json and --stats against grep's options: -1, or 2 after printing why
 * they cannot go together.  --json's records hold whole lines with their
 * submatches (so -o changes nothing, as in ripgrep) and no colours. */
static int json_stats_finish(struct config *cfg)
{
	static const char *const pcre2_why = "--engine=pcre2: it cannot tell which pattern matched";
	const char *with = NULL;
	if (cfg->json) {
		with = cfg->list == LIST_MATCHING ? "-l"
		       : cfg->list == LIST_NONMATCHING ? "-L"
		       : cfg->count ? "-c"
		       : cfg->count_matches ? "--count-matches"
		       : cfg->count_per_pattern ? "--count-per-pattern"
		       : cfg->engine == ENGINE_PCRE2 ? pcre2_why : NULL;
		cfg->only_matching = false;
		cfg->color = false;
	}
	if (with) {
		fprintf(stderr, PROG ": --json cannot be combined with %s\n", with);
		return 2;
	}
	if (cfg->stats && cfg->engine == ENGINE_PCRE2) {
		fprintf(stderr, PROG ": --stats cannot be combined with %s\n", pcre2_why);
		return 2;
	}
	return -1;
}

int opts_report_option(struct config *cfg, int c, const char *arg)
{
	switch (c) {
	/* tags and --show-pattern */
	case OPT_SHOW_PATTERN:
	case OPT_SHOW_ALL_PATTERNS: { /* the last of the two decides */
		static const char *const whats[] = {"tag", "text", "number", NULL};
		const char *name = c == OPT_SHOW_PATTERN ? "--show-pattern" : "--show-all-patterns";
		int k = arg ? opts_argmatch(name, arg, whats, true) : 0;
		if (k < 0)
			return opts_usage_error();
		cfg->show_pattern = (enum show_pattern)(SHOW_PATTERN_TAG + k);
		cfg->show_all_patterns = c == OPT_SHOW_ALL_PATTERNS;
		return -1;
	}

	/* per-pattern counts, --overlapping, --all-patterns */
	case OPT_COUNT_PER_PATTERN: cfg->count_per_pattern = true; return -1;
	case OPT_INCLUDE_ZERO: cfg->include_zero = true; return -1;
	case OPT_OVERLAPPING: cfg->overlapping = true; return -1;
	case OPT_ALL_PATTERNS: cfg->all_patterns = true; return -1;

	/* --json and --stats */
	case OPT_JSON:
		cfg->json = true;
		return -1;
	case OPT_STATS:
		cfg->stats = true;
		return -1;

	default:
		return OPTS_NOT_REPORT;
	}
}

int opts_report_finish(struct config *cfg)
{
	/* tags and --show-pattern */
	if (cfg->show_pattern != SHOW_PATTERN_NONE && cfg->engine == ENGINE_PCRE2) {
		/* PCRE2's batched regexes do not say which pattern matched */
		fprintf(stderr, PROG ": %s needs --engine=ac\n",
			cfg->show_all_patterns ? "--show-all-patterns" : "--show-pattern");
		return 2;
	}

	/* per-pattern counts, --overlapping, --all-patterns */
	int per_pattern = per_pattern_finish(cfg);
	if (per_pattern >= 0)
		return per_pattern;

	/* --json and --stats */
	if (json_stats_finish(cfg) >= 0)
		return 2;

	return -1;
}
