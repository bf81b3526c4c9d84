/* SPDX-License-Identifier: MIT */
/* test_outbuf.c - the output buffer (outbuf.h): what is handed on and
 * when, positions and rewinds, output held or kept (the buffer grows and
 * hands nothing on), reservations, --line-buffered, and the sink
 * operations every writer over an outbuf shares.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/outbuf.h"
#include "search/sink.h"

/* What the buffer handed on, in order. */
static char sent[4 * OUTBUF_SIZE];
static size_t sent_len;

static void capture(void *ctx, const char *p, size_t len)
{
	(void)ctx;
	if (sent_len + len <= sizeof sent)
		memcpy(sent + sent_len, p, len);
	sent_len += len;
}

static void setup(struct outbuf *ob, bool line_buffered)
{
	sent_len = 0;
	CHECK(outbuf_init(ob, line_buffered) == 0, "outbuf_init");
	ob->flush_to = capture;
}

static void positions_and_rewinds(void)
{
	struct outbuf ob;
	setup(&ob, false);
	outbuf_append(&ob, "hello ", 6);
	outbuf_char(&ob, 'w');
	uint64_t mark = outbuf_position(&ob);
	outbuf_append(&ob, "orld\n", 5);
	CHECK(outbuf_position(&ob) == 12, "position %llu", (unsigned long long)outbuf_position(&ob));
	CHECK(outbuf_rewind(&ob, mark), "rewind within the buffer");
	CHECK(outbuf_rewind(&ob, 99) == false, "rewind past the end");
	outbuf_append(&ob, "!\n", 2);
	outbuf_flush(&ob);
	CHECK(sent_len == 9 && memcmp(sent, "hello w!\n", 9) == 0, "handed on %zu", sent_len);
	CHECK(outbuf_rewind(&ob, mark) == false, "handed on: no rewind");
	CHECK(outbuf_position(&ob) == 9, "position after a flush");
	outbuf_free(&ob);
}

/* Past the buffer's size without keep or hold: handed on in pieces, never
 * grown. */
static void fills_and_flushes(void)
{
	struct outbuf ob;
	setup(&ob, false);
	char *big = malloc(OUTBUF_SIZE + 100);
	memset(big, 'a', OUTBUF_SIZE + 100);
	outbuf_append(&ob, big, OUTBUF_SIZE + 100);
	CHECK(ob.cap == OUTBUF_SIZE, "not grown: %zu", ob.cap);
	CHECK(sent_len == OUTBUF_SIZE && ob.len == 100, "a full buffer handed on");
	CHECK(outbuf_room(&ob, OUTBUF_SIZE + 1) == NULL, "room past the buffer");
	char *o = outbuf_room(&ob, OUTBUF_SIZE);
	CHECK(o == ob.buf && sent_len == OUTBUF_SIZE + 100, "room after a flush");
	outbuf_free(&ob);
	free(big);
}

/* Kept output (a mapped search's checkpoint) is not handed on: appends and
 * reservations grow the buffer, and the rewind to the mark succeeds. */
static void kept(void)
{
	struct outbuf ob;
	setup(&ob, false);
	outbuf_append(&ob, "before\n", 7);
	uint64_t mark = outbuf_position(&ob);
	outbuf_keep_from(&ob, mark);
	CHECK(outbuf_room(&ob, OUTBUF_SIZE) == NULL, "no room without growing while kept");
	size_t total = 0;
	for (int i = 0; i < 40; i++) { /* a record in reservations, past the buffer */
		char *r = outbuf_reserve(&ob, 16 << 10);
		memset(r, 'k', 16 << 10);
		outbuf_commit(&ob, r + (16 << 10));
		total += 16 << 10;
	}
	CHECK(ob.cap >= 7 + total, "grown to %zu", ob.cap);
	CHECK(sent_len <= 7, "nothing past the mark handed on: %zu", sent_len);
	CHECK(outbuf_rewind(&ob, mark), "rewind to the kept mark");
	outbuf_append(&ob, "again\n", 6);
	outbuf_keep_from(&ob, OUTBUF_KEEP_NONE);
	outbuf_flush(&ob);
	CHECK(sent_len == 13 && memcmp(sent, "before\nagain\n", 13) == 0, "after the rewind");
	CHECK(ob.cap == OUTBUF_SIZE, "shrunk back: %zu", ob.cap);
	outbuf_free(&ob);
}

/* Held output (--all-patterns) waits for the verdict: kept or forgotten. */
static void held(void)
{
	struct outbuf ob;
	setup(&ob, false);
	outbuf_append(&ob, "a\n", 2);
	outbuf_hold(&ob);
	char *line = malloc(OUTBUF_SIZE);
	memset(line, 'h', OUTBUF_SIZE);
	outbuf_append(&ob, line, OUTBUF_SIZE);
	char *r = outbuf_reserve(&ob, 100);
	outbuf_commit(&ob, r + 100);
	outbuf_flush(&ob);
	CHECK(sent_len == 0, "nothing handed on while held: %zu", sent_len);
	outbuf_settle(&ob, false);
	outbuf_flush(&ob);
	CHECK(sent_len == 2 && memcmp(sent, "a\n", 2) == 0, "forgotten");
	outbuf_hold(&ob);
	outbuf_append(&ob, line, OUTBUF_SIZE);
	outbuf_settle(&ob, true);
	outbuf_flush(&ob);
	CHECK(sent_len == 2 + OUTBUF_SIZE, "kept: %zu", sent_len);
	outbuf_free(&ob);
	free(line);
}

static void line_buffered(void)
{
	struct outbuf ob;
	setup(&ob, true);
	outbuf_append(&ob, "one\n", 4);
	CHECK(sent_len == 0, "buffered until the line is done");
	outbuf_line_done(&ob);
	CHECK(sent_len == 4, "flushed at the line's end");
	outbuf_free(&ob);
	setup(&ob, false);
	outbuf_append(&ob, "one\n", 4);
	outbuf_line_done(&ob);
	CHECK(sent_len == 0, "not line-buffered: kept in the buffer");
	outbuf_free(&ob);
}

/* A writer: its first member is its outbuf. */
struct writer {
	struct outbuf *out;
	int own_state;
};

static void sink_operations(void)
{
	struct outbuf ob;
	setup(&ob, false);
	struct writer w = { .out = &ob };
	static const struct sink_ops ops = { OUTBUF_SINK_OPS(outbuf_sink_rewind) };
	struct sink s = { .ops = &ops, .ctx = &w };
	outbuf_append(&ob, "x\n", 2);
	uint64_t mark = sink_mark(&s);
	CHECK(mark == 2, "mark %llu", (unsigned long long)mark);
	sink_keep_from(&s, mark);
	CHECK(ob.keep_from == 2, "keep_from reaches the buffer");
	outbuf_append(&ob, "y\n", 2);
	CHECK(sink_rewind(&s, mark) && outbuf_position(&ob) == 2, "rewind reaches the buffer");
	CHECK(!sink_failed(&s), "no write failed");
	sink_keep_from(&s, SINK_KEEP_NONE);
	outbuf_free(&ob);
}

int main(void)
{
	positions_and_rewinds();
	fills_and_flushes();
	kept();
	held();
	line_buffered();
	sink_operations();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
