/* SPDX-License-Identifier: MIT */
/* fuzz_opts.c - libFuzzer target: the option parser (opts_parse) on argv
 * arrays and environments decoded from the input.
 *
 * Owns: the decoding and the sandbox.  opts_parse must return -1, 0, 1 or
 * 2, never crash, and leave nothing allocated once opts_free ran (the
 * sanitizers' leak check); when it returns -1 the config must be sane
 * (the checks in check_config).  Messages on stdout and stderr are
 * expected: run libFuzzer with -close_fd_mask=3 to silence them.
 *
 * The input is argv[1..] separated by NUL bytes (argv[0] is "acgrep"),
 * after a first element "FLAGS|GREP_COLORS|GREP_COLOR": FLAGS letters p
 * (POSIXLY_CORRECT), n (NO_COLOR=1), t (TERM=xterm, else unset) and u (a
 * UTF-8 locale, else C).  Every '/' in an argument becomes '_', and each
 * input is parsed in a scratch directory made at start-up (files p, e,
 * nul, empty, the tagged list t and directory d), so -f, --exclude-from,
 * --tagged-file and operands name
 * only files there; standard input is /dev/null.  (The working directory
 * is restored after each input; give libFuzzer an absolute
 * -artifact_prefix, since a crash happens inside the scratch directory.)
 */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_target.h"
#include "options/config.h"
#include "opts.h"

#define MAX_ARGS 64

static int scratch_fd = -1, home_fd = -1; /* the scratch directory, the original one */
static char scratch[] = "/tmp/acgrep-fuzz-opts.XXXXXX";

static void put_file(const char *name, const char *text, size_t len)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* At exit: the scratch directory and what start-up put there (a crash
 * leaves it, beside the crashing input). */
static void scratch_remove(void)
{
	static const char *const files[] = { "p", "e", "nul", "empty", "t" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		unlinkat(scratch_fd, files[i], 0);
	unlinkat(scratch_fd, "d", AT_REMOVEDIR);
	rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (home_fd < 0 || !mkdtemp(scratch) || chdir(scratch) != 0)
		abort();
	atexit(scratch_remove);
	scratch_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	put_file("p", "foo\nbar\n\nbaz", 12);
	put_file("e", "*.o  \n\n#x\nd\n", 12);
	put_file("nul", "a\0b\nc\n", 6);
	put_file("empty", "", 0);
	put_file("t", "evil\tfoo\nevil\t\tbar\nx\tbaz", 24);
	if (mkdir("d", 0700) != 0)
		abort();
	int null = open("/dev/null", O_RDONLY);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0)
		abort();
	close(null);
	if (scratch_fd < 0 || fchdir(home_fd) != 0)
		abort();
	return 0;
}

static void set_env(const char *name, const char *value)
{
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

/* The environment from "FLAGS|GREP_COLORS|GREP_COLOR" (s is writable). */
static void apply_env(char *s)
{
	char *colors = strchr(s, '|'), *legacy = NULL;
	if (colors) {
		*colors++ = '\0';
		if ((legacy = strchr(colors, '|')))
			*legacy++ = '\0';
	}
	set_env("POSIXLY_CORRECT", strchr(s, 'p') ? "1" : NULL);
	set_env("NO_COLOR", strchr(s, 'n') ? "1" : NULL);
	set_env("TERM", strchr(s, 't') ? "xterm" : NULL);
	set_env("GREP_COLORS", colors);
	set_env("GREP_COLOR", legacy);
	setlocale(LC_ALL, strchr(s, 'u') ? "C.UTF-8" : "C");
}

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_opts: %s\n", what);
	abort();
}

/* What opts_parse promises of a config it returns -1 with. */
static void check_config(const struct config *c)
{
	if (c->patterns.count == 0)
		fail("no pattern (none at all is the empty pattern)");
	if (!c->patterns.storage || !c->patterns.end)
		fail("patterns without storage");
	for (size_t i = 0; i < c->patterns.count; i++) {
		struct pattern p = pattern_at(&c->patterns, i);
		if (p.bytes[p.len] != '\0' || (i && c->patterns.end[i] <= c->patterns.end[i - 1]))
			fail("pattern storage out of order");
	}
	if (c->max_count < -1 || c->before < -1 || c->after < -1 || c->threads > MAX_THREADS)
		fail("number out of range");
	if (c->n_files && !c->files)
		fail("operands without an array");
	for (size_t i = 0; i < c->n_files; i++)
		if (!c->files[i])
			fail("NULL operand");
	size_t ni = 0, ne = 0;
	for (const char *o = c->filter_order; o && *o; o++) {
		if (*o == 'i')
			ni++;
		else
			ne++;
	}
	if (ni != c->n_includes || ne != c->n_excludes)
		fail("filter order and lists disagree");
	if (c->label == NULL || (c->quiet && c->list != LIST_NONE))
		fail("label or -q");
	for (size_t i = 0; c->tags.of && i < c->patterns.count; i++)
		if (c->tags.of[i] >= c->tags.names.count)
			fail("a pattern's tag out of range");
	/* every string must still be readable */
	volatile size_t sum = 0;
	const char *strings[] = { c->label, c->group_separator, c->colors.selected_match,
				  c->colors.context_match, c->colors.selected_line, c->colors.context_line,
				  c->colors.file_name, c->colors.line_number, c->colors.byte_offset,
				  c->colors.separator, c->colors.pattern };
	for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
		if (strings[i])
			sum += strlen(strings[i]);
	for (size_t i = 0; i < c->n_includes; i++)
		sum += strlen(c->includes[i]);
	for (size_t i = 0; i < c->n_excludes; i++)
		sum += strlen(c->excludes[i]);
	for (size_t i = 0; i < c->n_exclude_dirs; i++)
		sum += strlen(c->exclude_dirs[i]);
	for (size_t i = 0; i < c->n_files; i++)
		sum += strlen(c->files[i]);
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *copy = malloc(size + 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (size_t i = 0; i < size; i++)
		if (copy[i] == '/')
			copy[i] = '_';
	char *argv[MAX_ARGS + 2];
	char arg0[] = "acgrep";
	int argc = 0;
	argv[argc++] = arg0;
	size_t env_len = strlen(copy);
	apply_env(copy);
	for (size_t i = env_len + 1; i <= size && argc <= MAX_ARGS; i += strlen(copy + i) + 1)
		argv[argc++] = copy + i;
	argv[argc] = NULL;
	/* copies: opts_parse must leave argv and its strings untouched */
	char *orig[MAX_ARGS + 2];
	memcpy(orig, argv, (size_t)(argc + 1) * sizeof *argv);
	char *bytes = malloc(size + 1);
	if (!bytes)
		abort();
	memcpy(bytes, copy, size + 1);

	static struct config cfg;
	if (fchdir(scratch_fd) != 0)
		abort();
	int status = opts_parse(argc, argv, &cfg);
	if (status < -1 || status > 2)
		fail("exit status out of range");
	if (memcmp(orig, argv, (size_t)(argc + 1) * sizeof *argv) != 0)
		fail("argv was permuted");
	if (memcmp(bytes, copy, size + 1) != 0)
		fail("an argument was modified");
	if (status == -1)
		check_config(&cfg);
	opts_free(&cfg);
	opts_free(&cfg); /* twice is harmless */
	fflush(stdout);
	if (fchdir(home_fd) != 0)
		abort();
	free(bytes);
	free(copy);
	return 0;
}
