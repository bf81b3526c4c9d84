/* SPDX-License-Identifier: MIT */
/* input_internal.h - what the parts of the input module share behind
 * input.h: input.c (opening, the mapping, leaving it), input_read.c (the
 * read() path and its buffer), input_nul.c (where grep's buffers see
 * NUL bytes) and input_guard.c (the SIGBUS guard and its undo log).
 * Nothing outside the input module includes it.
 */
#ifndef ACGREP_INPUT_INTERNAL_H
#define ACGREP_INPUT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "input.h"

/* read() lands on page-aligned addresses: the buffer is allocated aligned
 * and the carried unfinished line is placed so that it ends on a boundary. */
#define READ_ALIGN ((size_t)4096)

/* Start (in data[0..pos), which ends at a line boundary) of its last
 * `keep` complete lines. */
static inline size_t lines_back(const char *data, size_t pos, size_t keep, char eol)
{
	for (size_t k = 0; k < keep && pos > 0; k++) {
		/* data[pos - 1] ends the line; find where it starts. */
		const char *p = pos > 1 ? memrchr(data, eol, pos - 1) : NULL;
		pos = p ? (size_t)(p - data) + 1 : 0;
	}
	return pos;
}

/* input.c */

/* The next window of a mapped input (input_next's contract). */
int input_next_mapped(struct input *in, struct window *w);

/* AUTO on a regular file whose unfinished line has grown to
 * INPUT_LONG_LINE bytes: maps the rest of the file, from the kept lines
 * on.  Call after input_compact, so buf[0] is the first kept byte.
 * Returns true when the input is mapped now. */
bool input_switch_to_map(struct input *in);

/* input_guard.c: input_next's part in a guarded read (input_read_guarded). */

/* Before a window: the reader's undo log, if any, saved where the input
 * stands (everything before it was done with). */
void input_next_saves(struct input *in);

/* After input_next's answer rc: whether the window out may fault (mapped);
 * when not, the undo log's keepers let go until the next save. */
void input_next_arms(struct input *in, int rc);

/* input_read.c */

/* The next window of the read() path (input_next's contract). */
int input_next_read(struct input *in, struct window *w);

/* Makes room for `more` bytes after buf[len]: the thread's spare buffer
 * of an earlier input taken first, then geometric growth.  Returns 0 or
 * -1 (ENOMEM). */
int input_reserve(struct input *in, size_t more);

/* Hands the read() buffer of `in`, closing, to the thread's next input
 * (or frees it when it grew large). */
void input_release_buffer(struct input *in);

/* input_nul.c */

/* Where the mapped window data[pos..end) ends for input_watch_nul: before
 * the read() buffer (in->chunk bytes) that holds its first NUL.  Records
 * in->window_nul: the bytes up to the end returned hold a NUL. */
size_t input_before_nul_buffer(struct input *in, const char *data, size_t pos, size_t end);

#endif
