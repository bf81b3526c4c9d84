/* search.h - one input, from its windows of lines to selected lines.
 *
 * Owns: turning match positions into selected lines and everything grep
 * decides per input: -v, -c, -l, -L, -q, -m, -o, context (-A/-B/-C) with
 * group separators, line numbers and byte offsets, binary files (NUL bytes,
 * and in a UTF-8 locale lines that are not valid UTF-8).  Knows nothing of
 * how bytes were read (input.c), of formats (print.c) or of the engine
 * behind the matcher.
 */
#ifndef ACGREP_SEARCH_H
#define ACGREP_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "input.h"
#include "matcher.h"
#include "print.h"

/* State shared by all inputs of one run. */
struct searcher {
	const struct config *cfg;
	const struct matcher *matcher;
	struct printer *pr;
	bool used;        /* something was output (group separators span files) */
	bool dev_null;    /* stdout is /dev/null: the first selected line decides */
};

struct search_result {
	intmax_t selected;     /* selected lines (after -m) */
	bool binary_matched;   /* print "binary file matches" */
	bool read_error;       /* errno in read_errno */
	int read_errno;
	bool truncated;        /* the mapped file shrank under us (SIGBUS) */
	uint64_t stop_offset;  /* -m ended the search: input offset just past the
				  last selected line; UINT64_MAX otherwise */
};

/* Searches one opened input whose display name is `name`.  Output goes to
 * the searcher's printer.  Never exits; errors are returned in *res. */
void search_input(struct searcher *s, struct input *in, const char *name, struct search_result *res);

#endif
