/* SPDX-License-Identifier: MIT */
/* complete.h - shell completion scripts (acgrep --generate=KIND).
 *
 * Owns: the bash, zsh and fish completion scripts, derived at run time
 * from the option tables (opts_argv.h) and the --help text (help.h): an
 * option completes exactly when --help lists it, with --help's
 * description, and an argument's choices are the quoted words --help
 * gives after "ARG is".  Nothing about an option is written twice.
 */
#ifndef ACGREP_COMPLETE_H
#define ACGREP_COMPLETE_H

#include <stdio.h>

/* The KIND names --generate accepts, NULL-terminated; an index into this
 * is what complete_write takes. */
extern const char *const complete_kinds[];

/* Writes the script of complete_kinds[kind] to `out`.  Returns 0, or 2
 * after a message on stderr (out of memory, a write error, or --help
 * listing an option the tables lack). */
int complete_write(int kind, FILE *out);

#endif
