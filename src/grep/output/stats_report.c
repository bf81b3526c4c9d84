/* SPDX-License-Identifier: MIT */
/* stats_report.c - the report that ends a run with --stats or --json
 * (see stats_report.h): --stats's lines, or the JSON summary record.
 */
#include "stats_report.h"

#include <stdio.h>

#include "json.h"
#include "print.h"

/* --stats's report: ripgrep's lines, then acgrep's own. */
static void stats_print(struct printer *pr, const struct run_stats *rs)
{
	const struct search_stats *t = &rs->total;
	char searching[32], total[32], compiling[32], text[512];
	stats_seconds(t->nanos, searching);
	stats_seconds(stats_now() - rs->start, total);
	stats_seconds(rs->compile_nanos, compiling);
	int n = snprintf(text, sizeof text,
			 "\n%llu matches\n%llu matched lines\n%llu files contained matches\n"
			 "%llu files searched\n%llu bytes printed\n%llu bytes searched\n"
			 "%s seconds spent searching\n%s seconds\n"
			 "%llu lines searched\n%llu patterns compiled\n%llu distinct patterns seen\n"
			 "%s seconds compiling patterns\n",
			 (unsigned long long)t->matches, (unsigned long long)t->matched_lines,
			 (unsigned long long)rs->searches_with_match, (unsigned long long)rs->searches,
			 (unsigned long long)t->bytes_printed, (unsigned long long)t->bytes_searched,
			 searching, total, (unsigned long long)t->lines_searched,
			 (unsigned long long)rs->patterns,
			 (unsigned long long)patterns_seen_count(&rs->seen), compiling);
	outbuf_append(pr->out, text, (size_t)n);
}

void stats_report(struct printer *pr, const struct run_stats *rs)
{
	if (pr->opt.report == PRINT_REPORT_JSON_SUMMARY)
		json_summary(pr->out, rs);
	else if (pr->opt.report == PRINT_REPORT_STATS)
		stats_print(pr, rs);
}
