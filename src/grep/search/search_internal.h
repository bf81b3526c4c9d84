/* SPDX-License-Identifier: MIT */
/* search_internal.h - what search.c (an input's windows, binary turns,
 * what it saves and restores) and search_lines.c (the lines of one
 * window) share: the state of one input's search.  Nothing outside the search includes it.
 */
#ifndef ACGREP_SEARCH_INTERNAL_H
#define ACGREP_SEARCH_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "binary.h"
#include "context.h"
#include "search.h"
#include "sink.h"
#include "summary.h"

/* What a search has decided up to where it stands: the memory the input's
 * undo log copies
 * (input_undo_keeps) and puts back when a mapped file shrank (SIGBUS),
 * the input then reading on with read() as if the lines after it had never
 * been looked at.  The search tells the input where it is done with a
 * mapped window's lines (input_done_to): after each line output or
 * selected. */
struct search_state {
	uint64_t out_mark;      /* the sink's mark after the last event */
	uint64_t stop_offset;   /* search_result's, until the search ends */
	struct context context; /* the last output, -A owed, -m left (context.h) */
	intmax_t cnt_lines;     /* line numbering: line terminators before buf[cnt_pos] */
	bool done;
	bool run_open;          /* -v: the last window ended in a run of selected lines */
	bool used;              /* searcher.used, until the search ends */
	bool encoding_error;    /* the binary rule's, as search_save found it */
};

/* The statistics as search_stats_save found them. */
struct stats_saved {
	struct search_stats stats;
	size_t seen_ids;      /* patterns listed in the result's seen */
	uint64_t seen_end;
	bool tail_open;
};

/* Matches found ahead of the lines selected (search_stats.c): a matcher
 * call over a few KiB of whole lines runs the engine's vector scan, where
 * a call per short line would mostly run its scalar tail.  Bounds are
 * input offsets. */
struct ahead_hit {
	uint64_t start, end;
	uint32_t pattern;
};

struct ahead_hits {
	struct ahead_hit *v;
	size_t n, cap, next;  /* next: the first one past the lines asked about */
	uint64_t from, to;    /* the input bytes the scan covered */
	bool off;             /* lines are scanned one by one (no memory for
				 these, or matches may span lines) */
};

/* The matches of the line being selected, for the sink (search_stats.c). */
struct line_hits {
	struct matcher_hit *v;
	size_t n, cap;
	uint64_t at;         /* the input offset of the line they are of, or
				UINT64_MAX */
	bool whole;          /* all of them are in v (none was left out for
				want of memory) */
};

struct file_search {
	const struct search_options *opt;
	struct searcher *s;
	struct input *in;    /* the input searched */
	const struct sink *sink;
	struct binary_policy bin;
	char eol;
	bool zap_nul;        /* binary: NUL ends lines too */
	bool quiet;          /* no lines are output */
	struct search_state state;
	struct summary sum;  /* counts, tallies, statistics; whether to stop */
	/* the current window: new lines in buf[start..len), earlier lines
	 * kept for -B in buf[0..start); base is the input offset of buf[0] */
	const char *buf;
	size_t start, len;
	uint64_t base;
	/* line numbering: state.cnt_lines eols lie before buf[cnt_pos] */
	size_t cnt_pos;
	/* a line handed out in pieces (input_stream_long_lines) goes on:
	 * it starts at input offset cont_from; cont_matched: a match in it */
	bool cont, cont_matched;
	uint64_t cont_from;
	bool used_at_start;  /* searcher.used when this input began */
	struct input_undo undo; /* the way back when a mapped input shrinks (input.h) */
	struct search_result *res;
	/* statistics (stats.h), kept when `counting` (search_stats.c) */
	bool counting;
	bool count_lines;    /* lines are numbered: -n, or counting */
	uint64_t seen_end;   /* input offset just past the last selected line */
	bool tail_open;      /* the last byte searched ends no line */
	uint64_t start_mark; /* the sink's mark at the input's begin */
	uint64_t origin;     /* input offset where the search began */
	uint64_t started;    /* stats_now() then */
	uint64_t binary_offset; /* where the input turned binary (sink_end) */
	struct stats_saved stats_saved;
	struct line_hits hits;
	struct ahead_hits ahead;
};

/* Whether a matcher call of this thread ran out of memory since the last
 * ask (matcher_take_failure: only -i in a UTF-8 locale can).  Its "no
 * match" cannot be trusted, so the input ends there as failed: "FILE:
 * memory exhausted", status 2, the run going on with the next input. */
static inline bool search_failed(struct file_search *f)
{
	if (!matcher_take_failure())
		return false;
	f->res->read_error = true;
	f->res->read_errno = ENOMEM;
	f->res->read_why = "memory exhausted";
	f->state.done = true;
	return true;
}

/* Bytes of context the input keeps before the next piece of a long line
 * beyond search_piece_margin (search_lines.c). */
#define PIECE_KEEP_EXTRA 8

/* search_lines.c: the lines of the window f->buf[f->start..f->len). */

/* Searches the window of whole lines: selects lines, outputs them and
 * their context through the sink. */
void search_window(struct file_search *f);

/* A window of a line handed out in pieces (input_stream_long_lines): its
 * first line may go on from earlier windows and its last one (partial) in
 * later ones; `last`: the input's last window. */
void search_pieces(struct file_search *f, bool partial, bool last);

/* Bytes of a cut-off piece's end within which a match is left to the next
 * piece (its -w context is not there yet). */
size_t search_piece_margin(const struct file_search *f);

/* Line number of the line starting at buf[pos] (counted from the last
 * position asked about). */
intmax_t search_lineno_at(struct file_search *f, size_t pos);

/* search_stats.c: the statistics of one input (stats.h), when counting. */

/* Sets up counting for the search of f, its begin event sent, its
 * counts added to what f->undo saves and restores. */
void search_stats_begin(struct file_search *f);

/* The summary's statistics hook (summary_hook, ctx the file_search): the
 * line [ls, le) is selected, and was output if it is to be: counts it and
 * its matches (none under -v), lists their patterns. */
void search_stats_line(void *ctx, size_t ls, size_t le);

/* The matches of the selected line [ls, le), being output, for the sink:
 * *out filled, or NULL when they could not all be kept. */
const struct sink_hits *search_stats_hits(struct file_search *f, size_t ls, size_t le,
					  struct sink_hits *out);

/* The window f->buf[f->start..f->len) was searched, up to its end or, when
 * the search is done, up to the last line it selected or output: counts
 * its bytes and lines. */
void search_stats_window(struct file_search *f);

/* The search ended: its time and output bytes, a last line without
 * terminator.  Frees what counting holds. */
void search_stats_end(struct file_search *f);

#endif
