/* SPDX-License-Identifier: MIT */
/* count_patterns.c - libacgrep's example: how often each pattern occurs.
 *
 * Usage: count_patterns [-a] [-i] PATTERN_FILE [FILE]...
 *
 * Reads the patterns from PATTERN_FILE, one per line, and counts their
 * matches in each FILE (standard input without one): the non-overlapping
 * leftmost-longest matches grep -o prints, or with -a every match,
 * overlapping ones too; -i ignores ASCII case.  Prints "COUNT<TAB>PATTERN"
 * for each pattern that occurs, in the pattern file's order.
 *
 * Build: cc count_patterns.c $(pkg-config --cflags --libs acgrep)
 */
#include <acgrep.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct text {
	char *bytes;
	size_t len;
};

/* Reads all of `f` into *t.  Returns 0, or -1 with errno set. */
static int slurp(FILE *f, struct text *t)
{
	size_t cap = 1 << 16;
	t->len = 0;
	t->bytes = malloc(cap);
	while (t->bytes) {
		t->len += fread(t->bytes + t->len, 1, cap - t->len, f);
		if (t->len < cap)
			return ferror(f) ? -1 : 0;
		char *more = realloc(t->bytes, cap *= 2);
		if (!more)
			free(t->bytes);
		t->bytes = more;
	}
	errno = ENOMEM;
	return -1;
}

static int slurp_path(const char *path, struct text *t)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return -1;
	int rc = slurp(f, t);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* The callback: one more match of pattern `id`. */
static int count_match(void *ctx, size_t start, size_t end, uint32_t id)
{
	(void)start;
	(void)end;
	((unsigned long *)ctx)[id]++;
	return 0;
}

/* The length of the line at `at` in t, its newline left out. */
static size_t line_len(const struct text *t, size_t at)
{
	const char *nl = memchr(t->bytes + at, '\n', t->len - at);
	return nl ? (size_t)(nl - t->bytes) - at : t->len - at;
}

/* Adds each line of the pattern file as a pattern: line k gets id k. */
static int add_lines(acgrep_set *set, const struct text *pats, size_t *n)
{
	*n = 0;
	for (size_t at = 0, len; at < pats->len; at += len + 1, (*n)++) {
		len = line_len(pats, at);
		if (acgrep_add(set, pats->bytes + at, len) != 0)
			return -1;
	}
	return 0;
}

static void print_counts(const struct text *pats, const unsigned long *counts)
{
	size_t id = 0;
	for (size_t at = 0, len; at < pats->len; at += len + 1, id++) {
		len = line_len(pats, at);
		if (counts[id])
			printf("%lu\t%.*s\n", counts[id], (int)len, pats->bytes + at);
	}
}

int main(int argc, char **argv)
{
	int mode = ACGREP_LEFTMOST_LONGEST, i = 1;
	unsigned flags = 0;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "-a") == 0)
			mode = ACGREP_OVERLAPPING;
		else if (strcmp(argv[i], "-i") == 0)
			flags |= ACGREP_FOLD_ASCII;
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: count_patterns [-a] [-i] PATTERN_FILE [FILE]...\n");
		return 2;
	}
	struct text pats = {0}, text = {0};
	if (slurp_path(argv[i], &pats) != 0) {
		perror(argv[i]);
		return 2;
	}
	size_t n = 0;
	acgrep_set *set = acgrep_new(flags);
	if (!set || add_lines(set, &pats, &n) != 0 || acgrep_compile(set) != 0) {
		perror("libacgrep");
		return 2;
	}
	unsigned long *counts = calloc(n + 1, sizeof *counts);
	int status = counts ? 0 : 2;
	const char *stdin_only[] = {"-", NULL};
	const char *const *files = i + 1 < argc ? (const char *const *)argv + i + 1 : stdin_only;
	for (; status == 0 && *files; files++) {
		if (slurp_path(*files, &text) != 0) {
			perror(*files);
			status = 2;
		} else if (acgrep_scan(set, text.bytes, text.len, mode, count_match, counts) != 0) {
			perror("acgrep_scan");
			status = 2;
		}
		free(text.bytes);
		text.bytes = NULL;
	}
	if (status == 0)
		print_counts(&pats, counts);
	free(counts);
	free(pats.bytes);
	acgrep_free(set);
	return status;
}
