/* opts_report.c - the options of acgrep's own reports (see opts_report.h).
 */
#include "opts_report.h"

#include <stdio.h>

#include "opts_argv.h"

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
	(void)cfg, (void)arg;
	switch (c) {
	/* option-anchor: tags and --show-pattern */

	/* option-anchor: per-pattern counts, --overlapping, --all-patterns */

	/* option-anchor: --json and --stats */
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
	(void)cfg;
	/* finish-anchor: tags and --show-pattern */

	/* finish-anchor: per-pattern counts, --overlapping, --all-patterns */

	/* finish-anchor: --json and --stats */
	if (json_stats_finish(cfg) >= 0)
		return 2;

	return -1;
}
