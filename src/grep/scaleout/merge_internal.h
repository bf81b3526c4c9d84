/* SPDX-License-Identifier: MIT */
/* merge_internal.h - what merge_read.c (reading and indexing record
 * streams) and merge.c (checking and printing) share.  Nothing outside
 * the merge includes it.
 */
#ifndef ACGREP_MERGE_INTERNAL_H
#define ACGREP_MERGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/* One record stream, whole in memory (mapped, or read from a pipe). */
struct merge_stream {
	const char *name;
	char *data;
	size_t len;
	bool mapped;
};

/* An F record with its E (a range), an O record or a W record. */
struct merge_item {
	char kind;               /* 'F', 'O' or 'W' */
	char *name;              /* unescaped, from malloc */
	size_t seq;              /* the order the streams met it in */
	size_t instance;         /* which time its file was given (merge.c) */
	uint64_t lo, hi, size;   /* F: hi UINT64_MAX for a whole input, size
				    UINT64_MAX for one not regular */
	bool command_line, listed;
	int err;                 /* O: errno (0: skipped); W: errno */
	/* F: its L records, each line led by `prefix` bytes (a tag) */
	const char *lines, *lines_end;
	size_t prefix;
	/* F: its E record */
	intmax_t nl;             /* line terminators in the range, or -1 */
	intmax_t selected;
	bool done, binary, dropped, bin_matched, used, truncated;
	int read_errno;          /* 0, or the read error's */
	char *why;               /* its text (from malloc), or NULL */
};

struct merge_index {
	struct merge_stream *streams;
	size_t n_streams;
	struct merge_item *items;
	size_t n_items, cap_items;
};

/* An L record. */
struct merge_line {
	char kind;               /* 's', 'c' or 'n' */
	uint64_t offset;
	bool counted;
	intmax_t lineno;         /* counted from its range's first line as 1 */
	size_t len;              /* bytes of the line */
	const char *esc;         /* escaped, esc_len bytes */
	size_t esc_len;
};

/* Parses the L record at p (after its prefix), ending at the first
 * newline before `end`.  Returns the position after that newline, or NULL
 * when the record is not a well-formed L record. */
const char *merge_parse_line(const char *p, const char *end, struct merge_line *ln);

/* Reads and indexes every stream the run's operands name, checking each
 * record and the streams' headers against the run's options.  False after
 * printing why on stderr (the merge then prints nothing). */
bool merge_read_all(struct run *r, struct merge_index *ix);

void merge_index_free(struct merge_index *ix);

/* A file's ranges (or its one O record), in file order; first: the order
 * of its first record, which orders the files. */
struct group {
	struct merge_item **items;
	size_t n, first;
};

/* Groups the index's items by file (each walk error alone: a group of
 * one), files in the order the streams first name them, a file's ranges
 * in file order.  Returns the groups (*n_groups), the items in *order
 * (both to free), or NULL when out of memory. */
struct group *merge_group_items(struct merge_index *ix, struct merge_item ***order, size_t *n_groups);

/* Whether the ranges of file g tile it once, and are text when more than
 * one; false after printing where not. */
bool merge_check_file(const struct group *g);

#endif
