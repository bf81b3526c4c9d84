/* SPDX-License-Identifier: MIT */
/* print.h - grep-compatible output: line prefixes, colours, separators.
 *
 * Owns: the exact GNU grep formats of selected and context lines, -o
 * output, -c counts, -l/-L names, group separators, SGR colour sequences,
 * written over an output buffer (outbuf.h) that the printer's owner
 * made.  Receives a search's events as a sink (sink.h).  Knows nothing of
 * files or of how lines were selected, nor which may be printed (binary.h
 * decides); it asks the matcher only to colour the matches inside a line
 * it was handed.
 */
#ifndef ACGREP_PRINT_H
#define ACGREP_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "outbuf.h"
#include "pattern_field.h"
#include "print_options.h"
#include "search/sink.h"

struct printer {
	struct outbuf *out;       /* first: see outbuf_of */
	struct print_options opt;  /* a copy: workers' printers share none */
	const struct matcher *matcher;
	const struct pattern_keys *keys; /* NULL unless pattern_keys_wanted */
	struct pattern_field field;      /* --show-pattern's, when given */
	bool show_name;           /* prefix lines with the file name */
	const char *name;         /* the input's display name (sink begin) */
	int number_width;         /* -T: -n and -b numbers are padded to it */
};

/* Sets up the printer over out (which outlives it) with a copy of opt
 * and, with --show-pattern, the pattern field; keys: the run's pattern
 * names, or NULL.  Returns 0, or -1 when out of memory; printer_free frees
 * what it made either way. */
int printer_init(struct printer *pr, struct outbuf *out, const struct print_options *opt,
		 const struct matcher *m, const struct pattern_keys *keys);
void printer_free(struct printer *pr);

/* The printer as the receiver of a search's events (sink.h): lines and
 * -o matches in grep's formats (prefixes, colours), group separators; begin takes
 * the input's name and -T width; end prints nothing (-c counts and -l/-L
 * names come from run.c, after its messages).  Valid while pr is. */
struct sink printer_sink(struct printer *pr);

/* "NAME:COUNT\n" (or without name) for -c and --count-matches. */
void print_count(struct printer *pr, const char *name, intmax_t count);

/* "NAME:" (or NAME\0 with -Z), coloured as -c's: the head of a line
 * that names its input. */
void print_name_head(struct printer *pr, const char *name);

/* "NAME\n" (or NAME\0 with -Z) for -l and -L. */
void print_file_name(struct printer *pr, const char *name);

/* Writes v in decimal at o (as "%ju") and returns the position just past
 * it; o must have room for PRINTER_DECIMAL_MAX bytes, all of which may be
 * written. */
#define PRINTER_DECIMAL_MAX 20
char *printer_decimal(char *o, uintmax_t v);

#endif
