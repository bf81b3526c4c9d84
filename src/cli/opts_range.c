/* SPDX-License-Identifier: MIT */
/* opts_range.c - the options of scaling out (see opts_range.h): --range,
 * --records, --merge, and --ranges, which only prints ranges.
 *
 * --ranges cuts a file's bytes into N nearly equal spans, START:END with
 * END exclusive; --range aligns each to whole lines, so the cuts need not
 * fall at line ends.  The fingerprint of the pattern list lets --merge
 * refuse record streams searched for other patterns.
 */
#include "opts_range.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opts_argv.h"

/* The most ranges --ranges cuts a file into. */
#define MAX_RANGES 1000000

/* A byte offset: decimal digits alone.  False when s is not one or
 * overflows. */
static bool parse_offset(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* --range=START:END (END may be left out: to the file's end). */
static int range_arg(struct config *cfg, const char *arg)
{
	const char *colon = strchr(arg, ':');
	uint64_t start, end = RANGE_TO_END;
	if (!colon || !parse_offset(arg, (size_t)(colon - arg), &start) ||
	    (colon[1] && (!parse_offset(colon + 1, strlen(colon + 1), &end) || end < start))) {
		fprintf(stderr, PROG ": %s: invalid range (START:END, byte offsets, START <= END)\n", arg);
		return 2;
	}
	cfg->has_range = true;
	cfg->range_start = start;
	cfg->range_end = end;
	return -1;
}

/* --ranges=N: a count from 1 to MAX_RANGES. */
static int ranges_arg(struct config *cfg, const char *arg)
{
	uint64_t n;
	if (!parse_offset(arg, strlen(arg), &n) || n < 1 || n > MAX_RANGES) {
		fprintf(stderr, PROG ": %s: invalid number of ranges (1 to %d)\n", arg, MAX_RANGES);
		return 2;
	}
	cfg->ranges = (unsigned)n;
	return -1;
}

int opts_range_option(struct config *cfg, int c, const char *arg)
{
	switch (c) {
	case OPT_RANGE: return range_arg(cfg, arg);
	case OPT_RANGES: return ranges_arg(cfg, arg);
	case OPT_RECORDS: cfg->records = true; return -1;
	case OPT_MERGE: cfg->merge = true; return -1;
	default: return OPTS_NOT_RANGE;
	}
}

/* Prints the ranges of one file; false after naming it on stderr.  "-" is
 * standard input, which no --range job could open again. */
static bool print_ranges(const char *name, bool show_name, const struct config *cfg)
{
	struct stat st;
	const char *why = NULL;
	unsigned n = cfg->ranges;
	bool is_stdin = strcmp(name, "-") == 0;
	if (is_stdin)
		why = "--ranges needs a regular file named as an operand";
	else if (stat(name, &st) != 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file (--ranges cuts a regular file's bytes)";
	else if (show_name && strpbrk(name, "\t\n"))
		why = "a name holding a tab or a newline cannot be printed with its ranges";
	if (why) {
		fflush(stdout);
		fprintf(stderr, PROG ": %s: %s\n", is_stdin ? cfg->label : name, why);
		return false;
	}
	uint64_t size = (uint64_t)st.st_size, step = size / n, rest = size % n, from = 0;
	for (unsigned i = 1; i <= n; i++) {
		/* size * i / n without overflow: rest * i < n * n */
		uint64_t to = step * i + rest * i / n;
		if (to == from && !(i == n && size == 0))
			continue;
		if (show_name)
			printf("%s\t", name);
		printf("%" PRIu64 ":%" PRIu64 "\n", from, to);
		from = to;
	}
	return true;
}

int opts_range_action(const struct config *cfg, char **files, int n_files)
{
	if (!cfg->ranges)
		return -1;
	if (n_files < 1) {
		fputs(PROG ": --ranges needs FILE operands\n", stderr);
		return 2;
	}
	bool show_name = cfg->with_filename >= 0 ? cfg->with_filename : n_files > 1;
	int status = 0;
	for (int i = 0; i < n_files; i++)
		if (!print_ranges(files[i], show_name, cfg))
			status = 2;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		status = 2;
	}
	return status;
}

/* FNV-1a over each pattern's length and bytes. */
static uint64_t pattern_hash(const struct pattern_set *ps)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (size_t i = 0; i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		uint64_t len = p.len;
		for (int k = 0; k < 8; k++, len >>= 8)
			h = (h ^ (len & 0xff)) * UINT64_C(1099511628211);
		for (size_t k = 0; k < p.len; k++)
			h = (h ^ (unsigned char)p.bytes[k]) * UINT64_C(1099511628211);
	}
	return h;
}

/* The option, of those of opts_report.c (issue 15), that a merge cannot
 * rebuild from record streams, or NULL.  Each needs what no record holds:
 * per-pattern counts over every line (--count-per-pattern, --all-patterns'
 * choice of inputs), or bytes searched and times of one search (--json's
 * end and summary, --stats).  The merge
 * prints --show-pattern's field, tags from --tagged-file and
 * --overlapping's matches itself, from the lines and its own patterns. */
static const char *unmergeable_report(const struct config *cfg)
{
	return cfg->count_per_pattern ? "--count-per-pattern"
	       : cfg->all_patterns    ? "--all-patterns"
	       : cfg->json            ? "--json"
	       : cfg->stats           ? "--stats"
				      : NULL;
}

int opts_range_finish(struct config *cfg)
{
	const char *why = NULL;
	bool scaling = cfg->records || cfg->merge;
	if (cfg->merge && (cfg->records || cfg->has_range))
		why = "--merge cannot be combined with --records or --range";
	else if (cfg->has_range && cfg->line_number && !cfg->records)
		why = "-n with --range needs --records: a range does not know its first line's "
		      "number; --merge numbers the lines";
	else if (cfg->has_range && cfg->decompress)
		why = "--range cannot split a compressed input (--decompress)";
	else if (scaling && unmergeable_report(cfg)) {
		fprintf(stderr, PROG ": %s cannot be used with %s: the records do not carry what it "
			"reports (see RECORD STREAMS in acgrep(1))\n", unmergeable_report(cfg),
			cfg->merge ? "--merge" : "--records");
		return 2;
	} else if (scaling && cfg->count_matches && cfg->max_count >= 0)
		why = "--records and --merge cannot count matches under -m";
	if (why) {
		fprintf(stderr, PROG ": %s\n", why);
		return 2;
	}
	if (scaling)
		cfg->pattern_hash = pattern_hash(&cfg->patterns);
	return -1;
}
