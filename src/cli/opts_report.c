/* opts_report.c - the options of acgrep's own reports (see opts_report.h).
 */
#include "opts_report.h"

#include <stdio.h>

#include "opts_argv.h"

int opts_report_option(struct config *cfg, int c, const char *arg)
{
	(void)cfg, (void)arg;
	switch (c) {
	/* option-anchor: tags and --show-pattern */

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

	/* finish-anchor: per-pattern counts, --overlapping, --all-patterns */

	/* finish-anchor: --json and --stats */

	return -1;
}
