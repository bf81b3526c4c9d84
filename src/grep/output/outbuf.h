/* SPDX-License-Identifier: MIT */
/* outbuf.h - the output buffer: bytes on their way to stdout.
 *
 * Owns: the buffer (large writes, no per-line stdio), where its bytes are
 * handed on (stdout, or a worker thread's output held until its turn),
 * the process's write error, positions in the output and rewinds to them,
 * output held until a verdict (outbuf_hold), output kept since the last
 * checkpoint of a mapped input's search (outbuf_keep_from),
 * --line-buffered's flush after each line, and the sink operations that
 * are the buffer's own (sink.h: mark, rewind, keep_from, failed).  Knows
 * nothing of what the bytes say: grep's formats (print.h), --json's
 * records (json.h) and a --records job's records (records.h) are writers
 * over an outbuf.
 */
#ifndef ACGREP_OUTBUF_H
#define ACGREP_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The buffer's size (holding or keeping output may grow it for a while). */
#define OUTBUF_SIZE (256u << 10)

struct outbuf {
	char *buf;
	size_t len, cap;
	uint64_t emitted;         /* bytes handed on by flushes, in all */
	/* Where flushed bytes go: NULL for stdout, else flush_to(flush_ctx,
	 * ...) (a worker thread's output, held until its turn). */
	void (*flush_to)(void *ctx, const char *p, size_t len);
	void *flush_ctx;
	bool line_buffered;       /* --line-buffered: outbuf_line_done flushes */
	bool holding;             /* outbuf_hold: nothing is handed on */
	uint64_t hold_from;       /* where the held output starts */
	uint64_t keep_from;       /* outbuf_keep_from: output past it is not
				     handed on; OUTBUF_KEEP_NONE */
};

/* An empty buffer of OUTBUF_SIZE bytes that hands on to stdout; with
 * line_buffered, outbuf_line_done flushes.  Returns 0, or -1 when out of
 * memory (nothing is then held). */
int outbuf_init(struct outbuf *ob, bool line_buffered);
void outbuf_free(struct outbuf *ob);

/* The slow paths of the inline functions below. */
void outbuf_append_slow(struct outbuf *ob, const void *p, size_t n);
char *outbuf_room_slow(struct outbuf *ob, size_t n);
char *outbuf_reserve_slow(struct outbuf *ob, size_t n);

/* Appends p[0..n), flushing the buffer as it fills, or growing it while
 * output is held or kept.  Bytes reach stdout or flush_to only from the
 * buffer, never from p: p may be a mapped file, which faults when the
 * file shrinks, and that fault must be taken in this copy, on the
 * searching thread holding no lock (DESIGN.md, "Input"). */
static inline void outbuf_append(struct outbuf *ob, const void *p, size_t n)
{
	if (n > ob->cap - ob->len) {
		outbuf_append_slow(ob, p, n);
		return;
	}
	memcpy(ob->buf + ob->len, p, n);
	ob->len += n;
}

static inline void outbuf_char(struct outbuf *ob, char c)
{
	if (ob->len == ob->cap)
		outbuf_append_slow(ob, &c, 1);
	else
		ob->buf[ob->len++] = c;
}

/* Room for n bytes at the buffer's end, flushed first when needed, never
 * grown: NULL when n bytes do not fit even an emptied buffer, or when
 * nothing may be handed on (held or kept output); the caller then writes
 * through outbuf_append.  What the caller writes there it adds with
 * outbuf_commit. */
static inline char *outbuf_room(struct outbuf *ob, size_t n)
{
	if (n > ob->cap - ob->len)
		return outbuf_room_slow(ob, n);
	return ob->buf + ob->len;
}

/* Room for n bytes (n <= OUTBUF_SIZE) at the buffer's end: flushed first
 * when needed, grown while output is held or kept (as outbuf_append).
 * What the caller writes there it adds with outbuf_commit. */
static inline char *outbuf_reserve(struct outbuf *ob, size_t n)
{
	if (n > ob->cap - ob->len)
		return outbuf_reserve_slow(ob, n);
	return ob->buf + ob->len;
}

/* The bytes written at outbuf_room's or outbuf_reserve's room, up to end,
 * are the buffer's. */
static inline void outbuf_commit(struct outbuf *ob, const char *end)
{
	ob->len = (size_t)(end - ob->buf);
}

/* Hands on everything buffered (but held or kept output).  The first
 * write error of the process prints "acgrep: write error: ..." and makes
 * outbuf_failed() true; from then on nothing is written (the run stops:
 * see run_report_result). */
void outbuf_flush(struct outbuf *ob);

/* A line (or record) is complete: flushed under --line-buffered. */
static inline void outbuf_line_done(struct outbuf *ob)
{
	if (ob->line_buffered)
		outbuf_flush(ob);
}

/* The position in the output: bytes handed on plus buffered. */
static inline uint64_t outbuf_position(const struct outbuf *ob)
{
	return ob->emitted + ob->len;
}

/* Forgets what was appended after position `pos` (outbuf_position): true,
 * or false, and nothing changed, when part of it was handed on already. */
bool outbuf_rewind(struct outbuf *ob, uint64_t pos);

/* From here on nothing is handed on (flushes wait, the buffer grows)
 * until outbuf_settle: an input's output held until it is known to be
 * wanted (--all-patterns).  Memory: that output.  Growing it past what
 * memory allows is a failure of the output ("memory exhausted"), as a
 * write error is. */
void outbuf_hold(struct outbuf *ob);

/* Ends outbuf_hold: what was held stays, to be handed on as usual (keep),
 * or is forgotten.  Nothing when the buffer does not hold. */
void outbuf_settle(struct outbuf *ob, bool keep);

/* From here on output past position `pos` (outbuf_position, at least what
 * was handed on) is not handed on until a later call moves pos on
 * (OUTBUF_KEEP_NONE: everything may go), so that outbuf_rewind(ob, pos)
 * succeeds; nor is anything handed on while bytes are appended: the
 * buffer grows, and is flushed by the next call once it grew.  A search
 * of a mapped file calls it at each of the input's checkpoints (its
 * keeper's save, input.h's struct input_undo): the file shrinking under
 * the line being written (SIGBUS) never leaves the line half written (it
 * is taken back and read again), and no write blocks between the
 * search's reading of a line and the copy of it.  Memory: that output (a
 * line's); when the buffer cannot grow, it is handed on as without this
 * call. */
#define OUTBUF_KEEP_NONE UINT64_MAX
void outbuf_keep_from(struct outbuf *ob, uint64_t pos);

/* Writes p[0..len) to stdout whole, bypassing any buffer (write errors as
 * outbuf_flush).  Any thread may call it. */
void outbuf_write(const char *p, size_t len);

/* The output failed: "acgrep: WHY" (": strerror(err)" unless err is 0)
 * on stderr the first time, and nothing is written from then on (as
 * after a write error).  Any thread may call it. */
void outbuf_fail(const char *why, int err);

/* Whether a write of stdout has failed.  Any thread may ask. */
bool outbuf_failed(void);

/* The sink operations (sink.h) that are the buffer's own, one rule for
 * every writer over an outbuf: a mark is an outbuf_position, rewind is
 * outbuf_rewind, keep_from is outbuf_keep_from, failed is outbuf_failed.
 * Their context is the writer, whose first member is its struct outbuf *
 * (each writer asserts it).  OUTBUF_SINK_OPS(rewind) fills those fields
 * of a struct sink_ops; rewind is outbuf_sink_rewind, or a writer's own
 * that calls it and forgets its state past the mark. */
uint64_t outbuf_sink_mark(void *writer);
bool outbuf_sink_rewind(void *writer, uint64_t mark);
void outbuf_sink_keep_from(void *writer, uint64_t mark);
bool outbuf_sink_failed(void *writer);
#define OUTBUF_SINK_OPS(rewind_op)                                                      \
	.mark = outbuf_sink_mark, .rewind = (rewind_op), .keep_from = outbuf_sink_keep_from, \
	.failed = outbuf_sink_failed

/* The outbuf of a writer whose first member is its struct outbuf *. */
static inline struct outbuf *outbuf_of(void *writer)
{
	return *(struct outbuf **)writer;
}

#endif
