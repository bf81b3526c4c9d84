/* print.h - grep-compatible output: line prefixes, colours, separators.
 *
 * Owns: the stdout buffer (large writes, no per-line stdio), the exact GNU
 * grep formats of selected and context lines, -o output, -c counts, -l/-L
 * names, group separators, SGR colour sequences.  Knows nothing of files
 * or of how lines were selected; it asks the matcher only to colour or
 * print the matches inside a line it was handed.
 */
#ifndef ACGREP_PRINT_H
#define ACGREP_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "matcher.h"

#define SEP_SELECTED ':'
#define SEP_CONTEXT '-'

struct printer {
	const struct config *cfg;
	const struct matcher *matcher;
	char *buf;
	size_t len, cap;
	uint64_t emitted;         /* bytes handed on by flushes, in all */
	bool show_name;           /* prefix lines with the file name */
	const char *name;         /* current file's display name */
	int number_width;         /* -T: -n and -b numbers are padded to it */
	bool utf8_check;          /* suppress lines with encoding errors */
	bool encoding_error;      /* a line was suppressed for that */
	/* Where flushed bytes go: NULL for stdout, else sink(sink_ctx, ...)
	 * (a worker thread's output, held until its turn). */
	void (*sink)(void *ctx, const char *p, size_t len);
	void *sink_ctx;
};

/* Where a line sits in its input, for -n and -b prefixes. */
struct line_pos {
	intmax_t lineno;  /* 1-based */
	uint64_t offset;  /* byte offset of the line's first byte */
};

/* Sets up the output buffer.  Returns 0, or -1 when out of memory. */
int printer_init(struct printer *pr, const struct config *cfg, const struct matcher *m);
void printer_free(struct printer *pr);

/* Prints the line text[0..len) (len includes its terminator if it has one)
 * as a selected (SEP_SELECTED) or context (SEP_CONTEXT) line.  Returns false
 * when the line was suppressed because of an encoding error. */
bool print_line(struct printer *pr, const char *text, size_t len, struct line_pos pos, char sep);

/* The group separator between non-adjacent context groups. */
void print_group_separator(struct printer *pr);

/* "NAME:COUNT\n" (or without name) for -c and --count-matches. */
void print_count(struct printer *pr, intmax_t count);

/* "NAME\n" (or NAME\0 with -Z) for -l and -L. */
void print_file_name(struct printer *pr);

/* Writes everything buffered.  The first write error of the process
 * prints "acgrep: write error: ..." and makes printer_failed() true; from
 * then on nothing is written (the run stops: see run_report_result). */
void printer_flush(struct printer *pr);

/* Writes p[0..len) to stdout whole, bypassing any printer (write errors as
 * printer_flush).  Any thread may call it. */
void printer_write(const char *p, size_t len);

/* Whether a write of stdout has failed.  Any thread may ask. */
bool printer_failed(void);

/* The printer's position in its output: bytes handed on plus buffered. */
uint64_t printer_position(const struct printer *pr);

/* Forgets what was printed after position `pos` (printer_position), when
 * all of it is still buffered: true.  False, and nothing changed, when
 * part of it was handed on already. */
bool printer_rewind(struct printer *pr, uint64_t pos);

/* Appends bytes already formatted (another printer's output) as they are. */
void printer_append(struct printer *pr, const char *p, size_t len);

/* Flushes when --line-buffered is on. */
void printer_line_done(struct printer *pr);

#endif
