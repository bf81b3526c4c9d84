/* SPDX-License-Identifier: MIT */
/* outbuf.c - the output buffer (see outbuf.h): handing bytes on to stdout
 * or to flush_to, the process's write error, positions and rewinds,
 * output held or kept, the slow paths of appending and reserving.
 */
#include "outbuf.h"

#include "grow.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Set by the first failed write of stdout, on any thread: the message is
 * printed once and nothing more is written. */
static atomic_bool write_failed;

bool outbuf_failed(void)
{
	return atomic_load_explicit(&write_failed, memory_order_relaxed);
}

void outbuf_fail(const char *why, int err)
{
	if (atomic_exchange(&write_failed, true))
		return;
	if (err)
		fprintf(stderr, "acgrep: %s: %s\n", why, strerror(err));
	else
		fprintf(stderr, "acgrep: %s\n", why);
}

/* Writes p[0..len) to stdout whole, unless a write has failed. */
static void write_all(const char *p, size_t len)
{
	size_t done = 0;
	while (done < len && !outbuf_failed()) {
		ssize_t n = write(STDOUT_FILENO, p + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			outbuf_fail("write error", n < 0 ? errno : EIO);
			return;
		}
		done += (size_t)n;
	}
}

void outbuf_write(const char *p, size_t len)
{
	write_all(p, len);
}

int outbuf_init(struct outbuf *ob, bool line_buffered)
{
	*ob = (struct outbuf){
		.buf = malloc(OUTBUF_SIZE),
		.cap = OUTBUF_SIZE,
		.line_buffered = line_buffered,
		.keep_from = OUTBUF_KEEP_NONE,
	};
	if (!ob->buf)
		ob->cap = 0;
	return ob->buf ? 0 : -1;
}

void outbuf_free(struct outbuf *ob)
{
	free(ob->buf);
	ob->buf = NULL;
	ob->len = ob->cap = 0;
}

/* Hands p[0..len) on: to flush_to, or straight to stdout. */
static void emit(struct outbuf *ob, const char *p, size_t len)
{
	if (ob->flush_to)
		ob->flush_to(ob->flush_ctx, p, len);
	else
		write_all(p, len);
}

void outbuf_flush(struct outbuf *ob)
{
	if (ob->holding)
		return;
	size_t n = ob->len;
	uint64_t free_to = ob->keep_from > ob->emitted ? ob->keep_from - ob->emitted : 0;
	if (free_to < n)
		n = (size_t)free_to;
	if (n)
		emit(ob, ob->buf, n);
	ob->emitted += n;
	ob->len -= n;
	if (ob->len) /* kept (outbuf_keep_from) */
		memmove(ob->buf, ob->buf + n, ob->len);
	if (ob->cap > OUTBUF_SIZE && ob->len <= OUTBUF_SIZE) { /* what a hold grew it to */
		char *b = realloc(ob->buf, OUTBUF_SIZE);
		ob->buf = b ? b : ob->buf;
		ob->cap = b ? OUTBUF_SIZE : ob->cap;
	}
}

bool outbuf_rewind(struct outbuf *ob, uint64_t pos)
{
	if (pos < ob->emitted || pos > ob->emitted + ob->len)
		return false;
	ob->len = (size_t)(pos - ob->emitted);
	return true;
}

void outbuf_hold(struct outbuf *ob)
{
	ob->holding = true;
	ob->hold_from = outbuf_position(ob);
}

void outbuf_settle(struct outbuf *ob, bool keep)
{
	if (ob->holding && !keep)
		outbuf_rewind(ob, ob->hold_from);
	ob->holding = false;
}

void outbuf_keep_from(struct outbuf *ob, uint64_t pos)
{
	ob->keep_from = pos;
	/* appending grows the buffer instead of flushing while output is
	 * kept: flushed here, between lines, once it grew (or each line, when
	 * line-buffered); read() windows, which keep nothing, never grow it */
	if (ob->cap > OUTBUF_SIZE || ob->line_buffered)
		outbuf_flush(ob);
}

/* Grows the buffer to take n more bytes, for output that is held or kept:
 * a write blocking in a flush here would come between the search's
 * reading of a mapped line and the copy of it, which would see what the
 * file holds after a change.  True when it grew; when memory ran out, a
 * hold fails the output (see outbuf_hold) and kept output is handed on
 * as if not kept (see outbuf_keep_from). */
static bool grow_for(struct outbuf *ob, size_t n)
{
	char *grown = grow_array(ob->buf, &ob->cap, ob->len + n, 1, OUTBUF_SIZE);
	if (grown) {
		ob->buf = grown;
		return true;
	}
	if (ob->holding)
		outbuf_fail("memory exhausted", 0);
	else
		ob->keep_from = OUTBUF_KEEP_NONE;
	return false;
}

static bool held_or_kept(const struct outbuf *ob)
{
	return ob->holding || ob->keep_from != OUTBUF_KEEP_NONE;
}

void outbuf_append_slow(struct outbuf *ob, const void *p, size_t n)
{
	const char *s = p;
	if (held_or_kept(ob)) {
		if (grow_for(ob, n)) {
			memcpy(ob->buf + ob->len, s, n);
			ob->len += n;
			return;
		}
		if (ob->holding) /* the output failed */
			return;
	}
	while (n > ob->cap - ob->len) {
		size_t room = ob->cap - ob->len;
		memcpy(ob->buf + ob->len, s, room);
		ob->len += room;
		s += room;
		n -= room;
		outbuf_flush(ob);
	}
	memcpy(ob->buf + ob->len, s, n);
	ob->len += n;
}

char *outbuf_room_slow(struct outbuf *ob, size_t n)
{
	if (n > ob->cap || held_or_kept(ob))
		return NULL;
	outbuf_flush(ob);
	return ob->buf + ob->len;
}

char *outbuf_reserve_slow(struct outbuf *ob, size_t n)
{
	if (held_or_kept(ob) && grow_for(ob, n))
		return ob->buf + ob->len;
	if (ob->holding) { /* the output failed: what it holds is never written */
		ob->emitted += ob->len;
		ob->len = 0;
		return ob->buf;
	}
	outbuf_flush(ob); /* hands on everything: nothing is kept now */
	return ob->buf + ob->len;
}

/* ---- the sink operations of every writer over an outbuf ---------------- */

uint64_t outbuf_sink_mark(void *writer)
{
	return outbuf_position(outbuf_of(writer));
}

bool outbuf_sink_rewind(void *writer, uint64_t mark)
{
	return outbuf_rewind(outbuf_of(writer), mark);
}

void outbuf_sink_keep_from(void *writer, uint64_t mark)
{
	outbuf_keep_from(outbuf_of(writer), mark);
}

bool outbuf_sink_failed(void *writer)
{
	(void)writer;
	return outbuf_failed();
}
