/* print_buffer.c - the printer's output buffer (see print.h): handing
 * bytes on to stdout or to flush_to, the process's write error, positions
 * and rewinds, output held until a verdict, the slow path of print.c's
 * out().
 */
#include "print.h"
#include "print_internal.h"

#include "grow.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set by the first failed write of stdout, on any thread: the message is
 * printed once and nothing more is written. */
static atomic_bool write_failed;

bool printer_failed(void)
{
	return atomic_load_explicit(&write_failed, memory_order_relaxed);
}

void printer_fail(const char *why, int err)
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
	while (done < len && !printer_failed()) {
		ssize_t n = write(STDOUT_FILENO, p + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			printer_fail("write error", n < 0 ? errno : EIO);
			return;
		}
		done += (size_t)n;
	}
}

/* Hands p[0..len) on: to flush_to, or straight to stdout. */
static void emit(struct printer *pr, const char *p, size_t len)
{
	if (pr->flush_to)
		pr->flush_to(pr->flush_ctx, p, len);
	else
		write_all(p, len);
}

void printer_flush(struct printer *pr)
{
	if (pr->holding)
		return;
	size_t n = pr->len;
	uint64_t free_to = pr->keep_from > pr->emitted ? pr->keep_from - pr->emitted : 0;
	if (free_to < n)
		n = (size_t)free_to;
	if (n)
		emit(pr, pr->buf, n);
	pr->emitted += n;
	pr->len -= n;
	if (pr->len) /* kept (printer_keep_from) */
		memmove(pr->buf, pr->buf + n, pr->len);
	if (pr->cap > OUT_BUFFER && pr->len <= OUT_BUFFER) { /* what a hold grew it to */
		char *b = realloc(pr->buf, OUT_BUFFER);
		pr->buf = b ? b : pr->buf;
		pr->cap = b ? OUT_BUFFER : pr->cap;
	}
}

uint64_t printer_position(const struct printer *pr)
{
	return pr->emitted + pr->len;
}

bool printer_rewind(struct printer *pr, uint64_t pos)
{
	if (pos < pr->emitted || pos > pr->emitted + pr->len)
		return false;
	pr->len = (size_t)(pos - pr->emitted);
	return true;
}

void printer_write(const char *p, size_t len)
{
	write_all(p, len);
}

void printer_hold(struct printer *pr)
{
	pr->holding = true;
	pr->hold_from = printer_position(pr);
}

void printer_keep_from(struct printer *pr, uint64_t pos)
{
	pr->keep_from = pos;
	/* out() grows the buffer instead of flushing while output is kept:
	 * flushed here, between lines, once it grew (or each line, when
	 * line-buffered); read() windows, which keep nothing, never grow it */
	if (pr->cap > OUT_BUFFER || pr->cfg->line_buffered)
		printer_flush(pr);
}

void printer_settle(struct printer *pr, bool keep)
{
	if (pr->holding && !keep)
		printer_rewind(pr, pr->hold_from);
	pr->holding = false;
}

/* The slow path of out(): fills and flushes the buffer until the rest
 * fits, or grows it for output that is held or kept.  Bytes reach flush_to
 * or stdout only from the printer's own buffer, never from the caller's
 * memory: that may be a mapped file, which faults when the file shrinks,
 * and a fault must be taken here, on the searching thread holding no lock
 * (DESIGN.md, "Input"), not inside flush_to or a write(2) (which would
 * fail with EFAULT). */
void printer_out_slow(struct printer *pr, const void *p, size_t n)
{
	const char *s = p;
	if (pr->holding || pr->keep_from != PRINTER_KEEP_NONE) {
		/* grown, not flushed: a write blocking here would come between
		 * the search's reading of a mapped line and this copy of it,
		 * which would see what the file holds after a change */
		char *grown = grow_array(pr->buf, &pr->cap, pr->len + n, 1, OUT_BUFFER);
		if (grown) {
			pr->buf = grown;
			memcpy(pr->buf + pr->len, s, n);
			pr->len += n;
			return;
		}
		if (pr->holding) { /* see printer_hold */
			printer_fail("memory exhausted", 0);
			return;
		}
		pr->keep_from = PRINTER_KEEP_NONE; /* handed on (see printer_keep_from) */
	}
	while (n > pr->cap - pr->len) {
		size_t room = pr->cap - pr->len;
		memcpy(pr->buf + pr->len, s, room);
		pr->len += room;
		s += room;
		n -= room;
		printer_flush(pr);
	}
	memcpy(pr->buf + pr->len, s, n);
	pr->len += n;
}
