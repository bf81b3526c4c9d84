/* SPDX-License-Identifier: MIT */
/* replay.c - runs a fuzz target over files, without libFuzzer.
 *
 * Owns: a main() for the targets of tests/fuzz, so that seed corpora and
 * crash inputs replay with any C11 compiler (make fuzz-smoke builds it
 * with gcc).  Each argument is a file, or a directory whose regular files
 * are run in name order.  A finding aborts as it does under libFuzzer; the
 * exit status is 0 once every input ran, 2 when one could not be read.
 * Paths are made absolute first: a target may change directory when it
 * initialises (fuzz_opts does).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_target.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	for (size_t r; buf && (r = fread(buf + len, 1, cap - len, f)) > 0;) {
		len += r;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	bool bad = ferror(f) || !buf;
	fclose(f);
	if (bad) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		return -1;
	}
	/* an exact copy, as libFuzzer hands inputs: overreads are caught */
	uint8_t *data = malloc(len ? len : 1);
	if (!data)
		abort();
	memcpy(data, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(data, len);
	free(data);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir; returns how many, or -1. */
static long run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (n + 1) * sizeof *nn);
		if (!nn)
			abort();
		names = nn;
		size_t need = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(need)))
			abort();
		snprintf(names[n++], need, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	long ran = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			ran += run_file(names[i]) == 0 ? 1 : 0;
		free(names[i]);
	}
	free(names);
	return ran;
}

int main(int argc, char **argv)
{
	char **paths = calloc((size_t)argc + 1, sizeof *paths);
	if (!paths)
		abort();
	for (int i = 1; i < argc; i++)
		if (!(paths[i] = realpath(argv[i], NULL)))
			paths[i] = strdup(argv[i]); /* reported when opened */
	const char *self = argv[0];
	LLVMFuzzerInitialize(&argc, &argv);
	long ran = 0;
	int status = 0;
	for (int i = 1; paths[i]; i++) {
		struct stat st;
		long k = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode) ? run_dir(paths[i])
									  : run_file(paths[i]) == 0 ? 1 : -1;
		free(paths[i]);
		if (k < 0)
			status = 2;
		else
			ran += k;
	}
	free(paths);
	fprintf(stderr, "%s: replayed %ld inputs\n", self, ran);
	return status;
}
