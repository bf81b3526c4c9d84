/* SPDX-License-Identifier: MIT */
/*
 * ac_count.c - a benchmark helper for scripts/perf/hyperscan.sh, not part of
 * acgrep: acgrep's engine measured the way hs_count.c measures Hyperscan's,
 * so that the two engines compare like for like, without acgrep's reading
 * of the input (which overlaps the scan) or its second thread.
 *
 * Usage: ac_count [-i] PATTERNS INPUT
 *
 * PATTERNS holds one literal a line, as for grep -F -f.  The lines become a
 * pattern set before any clock starts; matcher_ac_new compiles it (ASCII
 * folding with -i, as grep under LC_ALL=C; one thread).  INPUT is read
 * whole into memory with read() and its pages touched (count_io.h), then
 * one thread counts matching lines as acgrep's search does for -c: the
 * matcher's find from the start of a line, then on from the end of the
 * line it found.
 *
 * stdout: the count.  stderr: one line of times (clock_gettime, monotonic):
 * compile, read, touch, scan.  Exit status as grep's: 0 when some line
 * matched, 1 when none did, 2 on error.
 *
 * Build: make build/ac_count (it links acgrep's objects).
 */
#include <stdbool.h>

#include "match/matcher.h"
#include "options/config.h"

#define COUNT_PROG "ac_count"
#include "count_io.h"

/* The lines of a pattern file as a pattern set: each newline becomes its
 * line's NUL; the final newline only ends the last line.  The set's bytes
 * are a malloc'd copy (the engine frees them with free()). */
static struct pattern_set split_patterns(struct buf file)
{
	/* one byte more: a last line without newline gets its NUL there */
	struct buf pat = { .p = malloc(file.len + 1), .len = file.len };
	if (!pat.p)
		fail("out of memory", NULL);
	memcpy(pat.p, file.p, file.len);
	table_free(file.p);
	size_t len = pat.len && pat.p[pat.len - 1] == '\n' ? pat.len - 1 : pat.len;
	/* the newlines left, plus one: "a\n" is then "a" and "" */
	size_t n = pat.len ? lines_in(pat.p, len) + (len == 0 || pat.p[len - 1] == '\n') : 0;
	struct pattern_set ps = { .storage = pat.p, .end = malloc((n ? n : 1) * sizeof *ps.end), .count = n };
	if (!ps.end || len >= UINT32_MAX)
		fail("out of memory", NULL);
	for (size_t i = 0, at = 0; i < n; i++) {
		char *nl = memchr(pat.p + at, '\n', len - at);
		size_t e = nl ? (size_t)(nl - pat.p) : len;
		pat.p[e] = '\0';
		ps.holds_nul = ps.holds_nul || memchr(pat.p + at, '\0', e - at);
		ps.end[i] = (uint32_t)e;
		at = e + 1;
	}
	return ps;
}

int main(int argc, char **argv)
{
	bool fold = argc > 1 && strcmp(argv[1], "-i") == 0;
	int a = fold ? 2 : 1;
	if (argc - a != 2) {
		fprintf(stderr, "usage: ac_count [-i] PATTERNS INPUT\n");
		return 2;
	}
	struct pattern_set ps = split_patterns(read_all(argv[a]));
	if (ps.holds_nul)
		fail(argv[a], "a pattern holds NUL (grep drops it in binary files; not done here)");
	size_t n = ps.count;
	/* As acgrep's driver for `-c -F -f PATTERNS` in the C locale, on one thread. */
	struct match_options mo = { .ignore_case = fold, .eol = '\n', .nul_ends_lines = true, .threads = 1 };
	const char *error = NULL;
	struct matcher *m = NULL;

	double t0 = now();
	if (n > 0 && !(m = matcher_ac_new(&ps, &mo, &error)))
		fail("matcher_ac_new", error);
	double t1 = now();
	struct buf in = read_all(argv[a + 1]);
	double t2b = now();
	touch(&in);
	double t2 = now();

	unsigned long long lines = 0;
	size_t p = 0, ms, me;
	while (m && p < in.len && matcher_find(m, in.p, in.len, p, false, &ms, &me)) {
		if (ms == in.len && in.p[in.len - 1] == '\n')
			break; /* the empty "line" after the last newline */
		lines++;
		const char *nl = memchr(in.p + ms, '\n', in.len - ms);
		p = nl ? (size_t)(nl - in.p) + 1 : in.len;
	}
	double t3 = now();

	if (printf("%llu\n", lines) < 0 || fflush(stdout) != 0)
		fail("stdout", strerror(errno));
	double t4 = now();
	fprintf(stderr, "ac_count: %zu literals, %zu bytes; compile_ms %.3f read_ms %.3f touch_ms %.3f scan_ms %.3f total_ms %.3f\n",
		n, in.len, (t1 - t0) * 1e3, (t2b - t1) * 1e3, (t2 - t2b) * 1e3, (t3 - t2) * 1e3, (t4 - t0) * 1e3);
	matcher_free(m);
	free(ps.storage);
	free(ps.end);
	table_free(in.p);
	return lines ? 0 : 1;
}
