/* SPDX-License-Identifier: MIT */
/* opts_report.h - the options of acgrep's own reports: which pattern
 * matched, per-pattern counts, JSON, statistics (issue 15's options).
 *
 * Owns: their arguments, the rules on how they combine with each other
 * and with grep's options, and their diagnostics.  Used only by opts.c.
 */
#ifndef ACGREP_OPTS_REPORT_H
#define ACGREP_OPTS_REPORT_H

#include "options/config.h"

/* opts_report_option's answer for an option that is not one of these. */
#define OPTS_NOT_REPORT (-2)

/* Applies option c (getopt_long's value) with argument arg.  Returns -1
 * when applied, an exit status after printing why it cannot be, or
 * OPTS_NOT_REPORT. */
int opts_report_option(struct config *cfg, int c, const char *arg);

/* After every option and the locale: checks and settles how these options
 * combine.  Returns -1, or an exit status after printing why not. */
int opts_report_finish(struct config *cfg);

#endif
