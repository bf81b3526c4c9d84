/* SPDX-License-Identifier: MIT */
/*
 * hs_count.c - a benchmark helper for scripts/perf/hyperscan.sh, not part of
 * acgrep: `grep -F -c -f PATTERNS INPUT` done by Hyperscan's literal engine,
 * used as a library, with no line logic inside the engine.
 *
 * Usage: hs_count [-i] PATTERNS INPUT
 *
 * PATTERNS holds one literal a line, as for grep -F -f (a last line without a
 * newline counts; an empty line matches every line).  All literals are
 * compiled into one block-mode database with hs_compile_lit_multi
 * (HS_FLAG_CASELESS with -i: ASCII case folding, as grep under LC_ALL=C).
 * INPUT is read whole into memory with read(), then hs_scan runs over it and
 * the callback counts matching lines: Hyperscan reports matches in order of
 * end offset, and a literal holds no newline, so a match lies in a new line
 * exactly when it ends after the newline that closed the last counted line.
 * HS_FLAG_SINGLEMATCH is not used: it reports each literal once per scan, and
 * the scan is of the whole input, not of one line.
 *
 * stdout: the count.  stderr: one line of times (clock_gettime, monotonic):
 * compile (database and scratch), read, touch (see touch()), scan.  Exit status as grep's: 0 when
 * some line matched, 1 when none did, 2 on error.
 *
 * Build (as hyperscan.sh does, from the repository root):
 *   cc -std=c11 -O2 -D_GNU_SOURCE -c -o table.o src/engine/table.c
 *   cc -std=c11 -O2 -Isrc/engine -o hs_count scripts/perf/hs_count.c table.o -lhs
 */
#define _GNU_SOURCE	/* read, open, clock_gettime under -std=c11 */

#include <limits.h>

#include <hs/hs.h>

#define COUNT_PROG "hs_count"
#include "count_io.h"

struct counter {
	const char *text;	/* the chunk being scanned */
	size_t len;		/* its length */
	unsigned long long end;	/* offset in the chunk of the byte after the last counted line's newline */
	unsigned long long lines;
};

static int on_match(unsigned int id, unsigned long long from, unsigned long long to,
		    unsigned int flags, void *ctx)
{
	struct counter *c = ctx;
	const char *nl;

	(void)id;
	(void)from;
	(void)flags;
	if (to <= c->end)
		return 0;	/* in the line counted last */
	c->lines++;
	/* The match's last byte is at to - 1: its line ends at the next newline. */
	nl = memchr(c->text + to, '\n', c->len - (size_t)to);
	c->end = nl ? (unsigned long long)(nl - c->text) + 1 : c->len;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned flag = 0;
	int a = 1;
	struct buf pat, in;
	const char **lits;
	size_t *lens;
	unsigned *flags, *ids, n = 0, i;
	int empty = 0;
	hs_database_t *db = NULL;
	hs_scratch_t *scratch = NULL;
	hs_compile_error_t *err = NULL;
	struct counter c = { NULL, 0, 0, 0 };
	double t0, t1, t2, t2b, t3, t4;
	size_t off;

	if (argc > 1 && strcmp(argv[1], "-i") == 0) {
		flag = HS_FLAG_CASELESS;
		a++;
	}
	if (argc - a != 2) {
		fprintf(stderr, "usage: hs_count [-i] PATTERNS INPUT\n");
		return 2;
	}

	/* The literals: pointers into the pattern file's buffer. */
	pat = read_all(argv[a]);
	n = (unsigned)lines_in(pat.p, pat.len);
	lits = malloc((n ? n : 1) * sizeof *lits);
	lens = malloc((n ? n : 1) * sizeof *lens);
	flags = malloc((n ? n : 1) * sizeof *flags);
	ids = malloc((n ? n : 1) * sizeof *ids);
	if (!lits || !lens || !flags || !ids)
		fail("out of memory", NULL);
	off = 0;
	for (i = 0; i < n; i++) {
		const char *s = pat.p + off, *nl = memchr(s, '\n', pat.len - off);
		size_t l = nl ? (size_t)(nl - s) : pat.len - off;

		lits[i] = s;
		lens[i] = l;
		flags[i] = flag;
		ids[i] = i;
		off += l + 1;
		if (l == 0)
			empty = 1;
	}

	t0 = now();
	if (n > 0 && !empty) {
		if (hs_compile_lit_multi(lits, flags, ids, lens, n, HS_MODE_BLOCK, NULL, &db, &err) !=
		    HS_SUCCESS) {
			fprintf(stderr, "hs_count: literal %d: ", err->expression);
			fail("hs_compile_lit_multi", err->message);
		}
		if (hs_alloc_scratch(db, &scratch) != HS_SUCCESS)
			fail("hs_alloc_scratch failed", NULL);
	}
	t1 = now();
	in = read_all(argv[a + 1]);
	t2b = now();
	touch(&in);
	t2 = now();

	if (empty) {
		c.lines = lines_in(in.p, in.len);	/* the empty literal matches every line */
	} else if (n > 0) {
		/*
		 * hs_scan takes an unsigned int length: scan in chunks that end at
		 * a newline (no literal spans one, so no match is lost).
		 */
		for (off = 0; off < in.len;) {
			size_t len = in.len - off;

			if (len > UINT_MAX) {
				const char *s = in.p + off, *nl = s + UINT_MAX;

				while (nl > s && nl[-1] != '\n')
					nl--;
				if (nl == s)
					fail(argv[a + 1], "a line longer than 4 GiB");
				len = (size_t)(nl - s);
			}
			c.text = in.p + off;
			c.len = len;
			c.end = 0;
			if (hs_scan(db, c.text, (unsigned)len, 0, scratch, on_match, &c) != HS_SUCCESS)
				fail("hs_scan failed", NULL);
			off += len;
		}
	}
	t3 = now();

	if (printf("%llu\n", c.lines) < 0 || fflush(stdout) != 0)
		fail("stdout", strerror(errno));
	t4 = now();
	fprintf(stderr, "hs_count: %u literals, %zu bytes; compile_ms %.3f read_ms %.3f touch_ms %.3f scan_ms %.3f total_ms %.3f; %s\n",
		n, in.len, (t1 - t0) * 1e3, (t2b - t1) * 1e3, (t2 - t2b) * 1e3, (t3 - t2) * 1e3, (t4 - t0) * 1e3,
		hs_version());
	hs_free_scratch(scratch);
	hs_free_database(db);
	free(ids);
	free(flags);
	free(lens);
	free(lits);
	table_free(pat.p);
	table_free(in.p);
	return c.lines ? 0 : 1;
}
