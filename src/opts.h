/* opts.h - the command line: getopt_long table, validation, --help, --version.
 *
 * Owns: turning argv and the environment (GREP_COLORS, GREP_COLOR, NO_COLOR,
 * TERM, the locale) into a const struct config.  Knows nothing of searching.
 */
#ifndef ACGREP_OPTS_H
#define ACGREP_OPTS_H

#include "config.h"

/* Parses argv into *cfg (zeroed by the caller).  Reads pattern files (-f).
 * Returns -1 when the search should run, or an exit status to exit with at
 * once: 0 after --help/--version, 2 after a usage error or an unreadable
 * pattern file (the message is already on stderr, as GNU grep prints it). */
int opts_parse(int argc, char **argv, struct config *cfg);

/* Frees what opts_parse allocated in *cfg. */
void opts_free(struct config *cfg);

#endif
