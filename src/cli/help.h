/* SPDX-License-Identifier: MIT */
/* help.h - the texts of --help and --version.
 *
 * Owns: the option summary shown by --help (kept in step with man/acgrep.1
 * by tests/help_man_agree.sh) and the version banner.  Called only by opts.c.
 */
#ifndef ACGREP_HELP_H
#define ACGREP_HELP_H

#include <stdio.h>

#define ACGREP_VERSION "0.1.0"

/* Writes the full --help text to `out`. */
void help_print(FILE *out);

/* Writes the --version text to `out`. */
void help_version(FILE *out);

#endif
