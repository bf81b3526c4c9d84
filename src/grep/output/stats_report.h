/* SPDX-License-Identifier: MIT */
/* stats_report.h - the report at the end of a run: --stats's lines or
 * --json's summary record, from the run's sums (search/stats.h).
 */
#ifndef ACGREP_STATS_REPORT_H
#define ACGREP_STATS_REPORT_H

#include "search/stats.h"

struct printer;

/* The report at the end of a run, into pr's output buffer: the one its
 * options name (print_options.report), --json's summary record or
 * --stats's lines, or nothing. */
void stats_report(struct printer *pr, const struct run_stats *rs);

#endif
