/* opts_report.c - the options of acgrep's own reports (see opts_report.h).
 */
#include "opts_report.h"

#include <stdio.h>

#include "opts.h"
#include "opts_argv.h"

int opts_report_option(struct config *cfg, int c, const char *arg)
{
	(void)cfg, (void)arg;
	switch (c) {
	/* option-anchor: tags and --show-pattern */
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

	/* option-anchor: per-pattern counts, --overlapping, --all-patterns */

	/* option-anchor: --json and --stats */

	default:
		return OPTS_NOT_REPORT;
	}
}

int opts_report_finish(struct config *cfg)
{
	(void)cfg;
	/* finish-anchor: tags and --show-pattern */
	if (cfg->show_pattern != SHOW_PATTERN_NONE && cfg->engine == ENGINE_PCRE2) {
		/* PCRE2's batched regexes do not say which pattern matched */
		fprintf(stderr, PROG ": %s needs --engine=ac\n",
			cfg->show_all_patterns ? "--show-all-patterns" : "--show-pattern");
		return 2;
	}

	/* finish-anchor: per-pattern counts, --overlapping, --all-patterns */

	/* finish-anchor: --json and --stats */

	return -1;
}
