/* print.h - grep-compatible output: line prefixes, colours, separators.
 *
 * Owns: the stdout buffer (large writes, no per-line stdio; an input's
 * output held whole until it is known to be wanted, printer_hold), the
 * exact GNU grep formats of selected and context lines, -o output, -c
 * counts, -l/-L names, group separators, SGR colour sequences.  Receives
 * a search's events as a sink (sink.h).  Knows nothing of files or of how
 * lines were selected, nor which may be printed (binary.h decides); it
 * asks the matcher only to colour the matches inside a line it was handed.
 */
#ifndef ACGREP_PRINT_H
#define ACGREP_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "options/config.h"
#include "pattern_field.h"
#include "search/sink.h"

struct json_state;

struct printer {
	const struct config *cfg;
	const struct matcher *matcher;
	const struct pattern_keys *keys; /* NULL unless pattern_keys_wanted */
	struct pattern_field field;      /* --show-pattern's, when given */
	char *buf;
	size_t len, cap;
	uint64_t emitted;         /* bytes handed on by flushes, in all */
	bool show_name;           /* prefix lines with the file name */
	const char *name;         /* the input's display name (sink begin) */
	int number_width;         /* -T: -n and -b numbers are padded to it */
	/* Where flushed bytes go: NULL for stdout, else flush_to(flush_ctx,
	 * ...) (a worker thread's output, held until its turn). */
	void (*flush_to)(void *ctx, const char *p, size_t len);
	void *flush_ctx;
	bool holding;             /* printer_hold: nothing is handed on */
	uint64_t hold_from;       /* where the held output starts */
	uint64_t keep_from;       /* printer_keep_from: output past it is not
				     handed on; PRINTER_KEEP_NONE */
	struct json_state *json;  /* the JSON sink's (json.c), or NULL */
};

/* Sets up the output buffer and, with --show-pattern, the pattern field;
 * keys: the run's pattern names, or NULL.  Returns 0, or -1 when out of
 * memory (nothing is then held). */
int printer_init(struct printer *pr, const struct config *cfg, const struct matcher *m,
		 const struct pattern_keys *keys);
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

/* Writes everything buffered.  The first write error of the process
 * prints "acgrep: write error: ..." and makes printer_failed() true; from
 * then on nothing is written (the run stops: see run_report_result). */
void printer_flush(struct printer *pr);

/* From here on nothing is handed on (flushes wait, the buffer grows)
 * until printer_settle: an input's output held until it is known to be
 * wanted (--all-patterns).  Memory: that output.  Growing it past what
 * memory allows is a failure of the output ("memory exhausted"), as a
 * write error is. */
void printer_hold(struct printer *pr);

/* Ends printer_hold: what was held stays, to be handed on as usual
 * (keep), or is forgotten.  Nothing when the printer does not hold. */
void printer_settle(struct printer *pr, bool keep);

/* From here on output past position `pos` (printer_position, at least
 * what was handed on) is not handed on until a later call moves pos on
 * (PRINTER_KEEP_NONE: everything may go), so that printer_rewind(pr, pos)
 * succeeds; nor is anything handed on while bytes are given: the buffer
 * grows, and is flushed by the next call once it grew.  A search of a
 * mapped file calls it at each checkpoint: the file shrinking under the
 * line being written (SIGBUS) never leaves the line half written (it is
 * taken back and read again), and no write blocks between the search's
 * reading of a line and the copy of it.  Memory: that output (a line's);
 * when the buffer cannot grow, it is handed on as without this call. */
#define PRINTER_KEEP_NONE UINT64_MAX
void printer_keep_from(struct printer *pr, uint64_t pos);

/* Writes p[0..len) to stdout whole, bypassing any printer (write errors as
 * printer_flush).  Any thread may call it. */
void printer_write(const char *p, size_t len);

/* The output failed: "acgrep: WHY" (": strerror(err)" unless err is 0)
 * on stderr the first time, and nothing is written from then on (as
 * after a write error).  Any thread may call it. */
void printer_fail(const char *why, int err);

/* Whether a write of stdout has failed.  Any thread may ask. */
bool printer_failed(void);

/* Appends bytes already formatted (another printer's output) as they are. */
void printer_append(struct printer *pr, const char *p, size_t len);

/* The printer's position in its output: bytes handed on plus buffered
 * (a sink's mark). */
uint64_t printer_position(const struct printer *pr);

/* Forgets what was printed after position `pos` (printer_position): true,
 * or false, and nothing changed, when part of it was handed on already. */
bool printer_rewind(struct printer *pr, uint64_t pos);

/* Writes v in decimal at o (as "%ju") and returns the position just past
 * it; o must have room for PRINTER_DECIMAL_MAX bytes, all of which may be
 * written. */
#define PRINTER_DECIMAL_MAX 20
char *printer_decimal(char *o, uintmax_t v);

#endif
