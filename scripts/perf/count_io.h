/* SPDX-License-Identifier: MIT */
/*
 * count_io.h - what the benchmark helpers hs_count.c and ac_count.c share
 * (scripts/perf/hyperscan.sh; not part of acgrep): reading an input whole
 * with read() into memory from acgrep's own allocator for large buffers
 * (src/engine/table.h: 2 MiB-aligned, huge pages asked for), touching its
 * pages before the scan's clock starts, counting lines, the clock, and
 * dying with status 2.  Each helper defines COUNT_PROG, its name for
 * messages, before including it, and links src/engine/table.c.
 */
#ifndef COUNT_IO_H
#define COUNT_IO_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "table.h"

#ifndef COUNT_PROG
#error "define COUNT_PROG before including count_io.h"
#endif

/* A huge page: buffers are a whole number of them. */
#define HUGE ((size_t)2 << 20)

struct buf {
	char *p;
	size_t len;
};

static inline void fail(const char *what, const char *detail)
{
	fprintf(stderr, COUNT_PROG ": %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(2);
}

static inline double now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		fail("clock_gettime", strerror(errno));
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* read_all - a whole file in memory, by read() (no mmap).  Free b.p with
 * table_free. */
static inline struct buf read_all(const char *path)
{
	struct buf b = { NULL, 0 };
	struct stat st;
	size_t cap;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fail(path, strerror(errno));
	if (fstat(fd, &st) != 0)
		fail(path, strerror(errno));
	cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	/* where the kernel agrees, in huge pages: see touch(). */
	cap = (cap + HUGE - 1) / HUGE * HUGE;
	b.p = table_reserve(cap);
	if (!b.p)
		fail("out of memory", NULL);
	for (;;) {
		ssize_t n;

		if (b.len == cap) {
			char *q = cap > SIZE_MAX / 2 ? NULL : table_grow(b.p, cap * 2);

			if (!q)
				fail("out of memory", NULL);
			b.p = q;
			cap *= 2;
		}
		n = read(fd, b.p + b.len, cap - b.len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail(path, strerror(errno));
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
	}
	close(fd);
	return b;
}

/*
 * touch - read one byte of every 4 KiB page of the input before the clock
 * of the scan starts.  On this project's VMs the first user-space access to
 * a page that read() has just filled costs about 18 us (a trap to the
 * hypervisor): 1.2 s over 256 MiB in 4 KiB pages, which would otherwise be
 * charged to hs_scan (1.3 s instead of 0.08 s for one rare literal).  Huge
 * pages (above) make read() itself cheaper there too.
 */
static volatile unsigned char sink;

static inline void touch(const struct buf *b)
{
	unsigned char x = 0;
	size_t i;

	for (i = 0; i < b->len; i += 4096)
		x ^= (unsigned char)b->p[i];
	sink = x;
}

/* lines_in - how many lines a buffer holds (a last one without newline counts). */
static inline unsigned long long lines_in(const char *p, size_t len)
{
	unsigned long long n = 0;
	const char *end = p + len, *nl;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p = nl + 1;
	}
	return n + (p < end);
}

#endif
