/* SPDX-License-Identifier: MIT */
/* fuzz_cli.c - libFuzzer target: the whole program (options, input,
 * search, print, threads) run in-process on a decoded pattern file, text
 * file and option set, under every scan path and input strategy.
 *
 * Owns: decoding an input into acgrep's command line; running acgrep's
 * main (compiled as acgrep_main, acgrep_main.h) once per variant[] with
 * standard output and error captured in memory files; and comparing the
 * runs: stdout, stderr and exit status must be the same under every scan
 * path, SIMD cap, read size, mmap, the thread pool cutting the file into
 * 7-byte segments (read) or 1-byte ones (mapped), with the text read from a pipe (except under -T,
 * whose number widths differ for pipes; and not the read sizes, segments
 * or PCRE2 where a pattern holding a NUL may span -z's records:
 * spans_records), and under --engine=pcre2 where
 * DESIGN.md does not list a difference (pcre2_comparable: never for -i
 * in UTF-8, where PCRE2 folds with Unicode's tables and grep with
 * glibc's).  Where the options are plain (C locale, no NUL in the text
 * unless -a, options among -i -w -x -v -c -n -m) the output must also be
 * what naive.c's line selection gives.
 *
 * Input layout:
 *   byte 0  -i -w -x -z -v -c -o --count-matches (bit 0 to 7)
 *   byte 1  -n -b -a, UTF-8 locale (bit 3), -m (bits 4-5:
 *           none, 1, 2, 0), context (bits 6-7: none, -A1, -B2, -C1)
 *   byte 2  the pattern file's length, low 8 bits
 *   byte 3  its high 2 bits; --color=always -T -I -l -L -Z (bit 2 to 7)
 *   then the pattern file (-f), then the text file (the one operand).
 */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wchar.h>

#include "acgrep_main.h"
#include "fuzz_target.h"
#include "naive.h"
#include "options/config.h"

/* The sanitizers' report file, where present (weak: the replay driver may
 * be built without them). */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

#define MAX_ARGS 48

/* Each run's extra arguments; the first is the reference. */
static const struct variant {
	const char *name;
	const char *args[4];
	bool tiny_reads; /* windows of a few bytes */
	bool cut;        /* the text in windows or segments smaller than it */
	bool pipe;       /* the text on standard input, a pipe, named by --label */
	bool pcre2;      /* the other engine (see pcre2_comparable) */
} variants[] = {
	{ .name = "dfa", .args = { "--threads=1", "--scan-path=dfa", "--simd=scalar", "--no-mmap" } },
	{ .name = "auto", .args = { "--threads=1" } },
	{ .name = "teddy", .args = { "--threads=1", "--scan-path=teddy" } },
	{ .name = "bitmap", .args = { "--threads=1", "--scan-path=bitmap", "--simd=scalar" } },
	{ .name = "hash", .args = { "--threads=1", "--scan-path=hash" } },
	{ .name = "memchr", .args = { "--threads=1", "--scan-path=memchr" } },
	{ .name = "rare", .args = { "--threads=1", "--scan-path=rare" } },
	{ .name = "mmap", .args = { "--threads=1", "--mmap" } },
	{ .name = "read1", .args = { "--threads=1", "--no-mmap", "--buffer-size=1" }, .tiny_reads = true,
	  .cut = true },
	{ .name = "read7", .args = { "--threads=1", "--no-mmap", "--buffer-size=7" }, .tiny_reads = true,
	  .cut = true },
	{ .name = "threads",
	  .args = { "--threads=3", "--segment-size=7", "--buffer-size=5" },
	  .tiny_reads = true, .cut = true },
	{ .name = "threads2", .args = { "--threads=2", "--mmap", "--segment-size=1" }, .cut = true },
	{ .name = "pipe", .args = { "--threads=1" }, .pipe = true },
#ifdef ACGREP_HAVE_PCRE2
	{ .name = "pcre2", .args = { "--engine=pcre2" }, .pcre2 = true },
#endif
};
#define N_VARIANTS (sizeof variants / sizeof *variants)

struct run {
	char *out, *err;
	size_t out_len, err_len;
	int status;
};

static int out_fd = -1, err_fd = -1, report_fd = -1;

static int memfile(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		abort();
	return fd;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	out_fd = memfile("stdout");
	err_fd = memfile("stderr");
	report_fd = dup(STDERR_FILENO);
	if (report_fd < 0)
		abort();
	if (__sanitizer_set_report_fd)
		__sanitizer_set_report_fd((void *)(intptr_t)report_fd);
	int null = open("/dev/null", O_RDONLY);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0)
		abort();
	close(null);
	unsetenv("GREP_COLORS");
	unsetenv("GREP_COLOR");
	unsetenv("POSIXLY_CORRECT");
	return 0;
}

/* Everything written to fd since it was last emptied, which it now is. */
static char *take(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *p = malloc(end > 0 ? (size_t)end : 1);
	if (end < 0 || !p || pread(fd, p, (size_t)end, 0) != end || ftruncate(fd, 0) != 0 ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	*len = (size_t)end;
	return p;
}

static void run_acgrep(char **argv, int argc, struct run *r)
{
	fflush(stdout);
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	if (saved_out < 0 || saved_err < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
	    dup2(err_fd, STDERR_FILENO) < 0)
		abort();
	r->status = acgrep_main(argc, argv);
	fflush(stdout);
	if (dup2(saved_out, STDOUT_FILENO) < 0 || dup2(saved_err, STDERR_FILENO) < 0)
		abort();
	close(saved_out);
	close(saved_err);
	r->out = take(out_fd, &r->out_len);
	r->err = take(err_fd, &r->err_len);
}

/* ---- the naive expectation ---- */

struct options {
	bool icase, word, line, null_data, invert, count, only, count_matches;
	bool number, byte, text, utf8, color, tab, no_binary, list, list_not, null_name;
	int max_count; /* -1: none */
	int context;   /* 0 none, 1 -A1, 2 -B2, 3 -C1 */
};

/* The -f file's patterns, as opts.c splits them (a pointer per line). */
static size_t split_patterns(const char *file, size_t len, struct pattern *pats)
{
	if (len == 0)
		return 0;
	if (file[len - 1] == '\n')
		len--;
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= len; i++)
		if (i == len || file[i] == '\n') {
			pats[n++] = (struct pattern){ .bytes = file + start, .len = i - start };
			start = i + 1;
		}
	return n;
}

/* Whether a pattern holds a NUL under -z: it may match across records, but
 * as in grep not across a read window's or a segment's end, and PCRE2
 * drops it (DESIGN.md, "grep semantics"; tests/diff's known_divergence),
 * so the variants that cut the text and PCRE2's are not compared. */
static bool spans_records(const struct options *o, const struct pattern *p, size_t n)
{
	for (size_t i = 0; o->null_data && i < n; i++)
		if (p[i].len && memchr(p[i].bytes, '\0', p[i].len))
			return true;
	return false;
}

static bool one_distinct(const struct pattern *p, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (p[i].len != p[0].len || memcmp(p[i].bytes, p[0].bytes, p[0].len) != 0)
			return false;
	return n > 0;
}

/* Appends to a growing buffer. */
static void emit(char **buf, size_t *len, const char *p, size_t n)
{
	char *nb = realloc(*buf, *len + n + 1);
	if (!nb)
		abort();
	memcpy(nb + *len, p, n);
	*buf = nb;
	*len += n;
}

/* grep -F's output for the plain cases (see the file-top comment), or
 * false where it is not that simple. */
static bool expected(const struct options *o, const struct pattern *pats, size_t n_pats, const char *text,
		     size_t text_len, struct run *want)
{
	if (o->utf8 || o->null_data || o->only || o->count_matches || o->color || o->tab || o->list ||
	    o->list_not || o->byte || o->context || (!o->text && memchr(text, '\0', text_len)) || n_pats == 0)
		return false;
	bool all_empty = true;
	for (size_t i = 0; i < n_pats; i++)
		all_empty = all_empty && pats[i].len == 0;
	if (all_empty && o->invert && !o->line && !o->word)
		return false; /* grep exits at once */
	*want = (struct run){ .status = 1 };
	if (o->max_count == 0)
		return true;
	struct naive nv;
	struct naive_options no = {
		.fold = o->icase,
		.word = o->word,
		.line = o->line,
		.eol = '\n',
		.word_ignores_before_from = o->word && !o->line && !one_distinct(pats, n_pats),
		.word_regex_rules = o->word && !o->line && one_distinct(pats, n_pats),
	};
	if (!naive_init(&nv, pats, n_pats, (const uint8_t *)text, text_len, &no))
		abort();
	long selected = 0;
	size_t lineno = 0;
	for (size_t ls = 0; ls < text_len && (o->max_count < 0 || selected < o->max_count);) {
		const char *nl = memchr(text + ls, '\n', text_len - ls);
		size_t ll = nl ? (size_t)(nl - text) - ls : text_len - ls, s, e;
		lineno++;
		bool match = naive_find(&nv, ls, ll, 0, false, &s, &e) == NAIVE_YES;
		if (match != o->invert) {
			selected++;
			if (!o->count) {
				char num[32];
				if (o->number)
					emit(&want->out, &want->out_len, num,
					     (size_t)snprintf(num, sizeof num, "%zu:", lineno));
				emit(&want->out, &want->out_len, text + ls, ll);
				emit(&want->out, &want->out_len, "\n", 1);
			}
		}
		ls += ll + 1;
	}
	naive_free(&nv);
	if (o->count) {
		char num[32];
		emit(&want->out, &want->out_len, num, (size_t)snprintf(num, sizeof num, "%ld\n", selected));
	}
	want->status = selected ? 0 : 1;
	return true;
}

/* Is the PCRE2 engine's output grep's for these options?  Not for -w
 * where grep uses its regex matcher (a single distinct pattern in the C
 * locale; any -w in UTF-8, to stay simple), nor for -o or colour with a
 * pattern that is not valid UTF-8 in a UTF-8 locale, nor for -i in UTF-8,
 * which PCRE2 folds with Unicode's tables (DESIGN.md, "Known
 * differences"). */
static bool pcre2_comparable(const struct options *o, const struct pattern *pats, size_t n_pats)
{
	if (o->utf8 && o->icase)
		return false;
	if (o->word && !o->line && (o->utf8 || one_distinct(pats, n_pats)))
		return false;
	if (!o->utf8 || !(o->only || o->color))
		return true;
	for (size_t i = 0; i < n_pats; i++) {
		mbstate_t st;
		memset(&st, 0, sizeof st);
		for (size_t k = 0; k < pats[i].len;) {
			size_t n = mbrlen(pats[i].bytes + k, pats[i].len - k, &st);
			if (n == (size_t)-1 || n == (size_t)-2)
				return false;
			k += n ? n : 1;
		}
	}
	return true;
}

/* ---- comparing ---- */

static void show(const char *what, const char *p, size_t len)
{
	fprintf(stderr, "%s (%zu bytes): \"", what, len);
	for (size_t i = 0; i < len && i < 600; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
	fprintf(stderr, "%s\"\n", len > 600 ? "..." : "");
}

static bool equal(const char *p, size_t p_len, const char *q, size_t q_len)
{
	return p_len == q_len && (p_len == 0 || memcmp(p, q, p_len) == 0);
}

static void same(const struct run *a, const char *a_name, const struct run *b, const char *b_name,
		 char **argv, int argc, const char *pats, size_t pats_len, const char *text, size_t text_len)
{
	if (a->status == b->status && equal(a->out, a->out_len, b->out, b->out_len) &&
	    equal(a->err, a->err_len, b->err, b->err_len))
		return;
	fprintf(stderr, "acgrep");
	for (int i = 1; i < argc; i++)
		fprintf(stderr, " %s", argv[i]);
	fputc('\n', stderr);
	show("pattern file", pats, pats_len);
	show("text", text, text_len);
	const struct run *r[2] = { a, b };
	const char *names[2] = { a_name, b_name };
	for (int k = 0; k < 2; k++) {
		fprintf(stderr, "%s: status %d\n", names[k], r[k]->status);
		show("  stdout", r[k]->out, r[k]->out_len);
		show("  stderr", r[k]->err, r[k]->err_len);
	}
	abort();
}

/* Puts p[0..len) (at most a pipe's 64 KiB) in a pipe on standard input;
 * returns a copy of the old standard input. */
static int stdin_pipe(const char *p, size_t len)
{
	int fds[2], saved = dup(STDIN_FILENO);
	if (saved < 0 || pipe(fds) != 0 || (len && write(fds[1], p, len) != (ssize_t)len) ||
	    close(fds[1]) != 0 || dup2(fds[0], STDIN_FILENO) < 0 || close(fds[0]) != 0)
		abort();
	return saved;
}

static int file_with(const char *name, const char *p, size_t len)
{
	int fd = memfile(name);
	if (len && write(fd, p, len) != (ssize_t)len)
		abort();
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4 || size > 65536)
		return 0;
	uint8_t a = data[0], b = data[1], c = data[3];
	struct options o = {
		.icase = a & 1, .word = a & 2, .line = a & 4, .null_data = a & 8,
		.invert = a & 16, .count = a & 32, .only = a & 64, .count_matches = a & 128,
		/* -a then -I: the last one wins, as in grep */
		.number = b & 1, .byte = b & 2, .text = (b & 4) && !(c & 16), .utf8 = b & 8,
		.max_count = (int[]){ -1, 1, 2, 0 }[b >> 4 & 3], .context = b >> 6,
		.color = c & 4, .tab = c & 8, .no_binary = c & 16, .list = c & 32, .list_not = c & 64,
		.null_name = c & 128,
	};
	size_t plen = (size_t)data[2] | (size_t)(c & 3) << 8;
	if (plen > size - 4)
		plen = size - 4;
	const char *pat_file = (const char *)data + 4, *text = pat_file + plen;
	size_t text_len = size - 4 - plen;
	int pfd = file_with("patterns", pat_file, plen), tfd = file_with("text", text, text_len);
	char ppath[64], tpath[64];
	snprintf(ppath, sizeof ppath, "/proc/self/fd/%d", pfd);
	snprintf(tpath, sizeof tpath, "/proc/self/fd/%d", tfd);
	setenv("LC_ALL", o.utf8 ? "C.UTF-8" : "C", 1);

	static char flag_args[][24] = { "-i", "-w", "-x", "-z", "-v", "-c", "-o", "--count-matches",
					"-n", "-b", "-a", "-m1", "-m2", "-m0", "-A1", "-B2", "-C1",
					"--color=always", "-T", "-I", "-l", "-L", "-Z", "-f", "acgrep" };
	bool on[] = { o.icase, o.word, o.line, o.null_data, o.invert, o.count, o.only, o.count_matches,
		      o.number, o.byte, b & 4, o.max_count == 1, o.max_count == 2, o.max_count == 0,
		      o.context == 1, o.context == 2, o.context == 3, o.color, o.tab, o.no_binary,
		      o.list, o.list_not, o.null_name };
	char *argv[MAX_ARGS];
	int base = 0;
	argv[base++] = flag_args[24];
	for (size_t i = 0; i < sizeof on / sizeof *on; i++)
		if (on[i])
			argv[base++] = flag_args[i];
	argv[base++] = flag_args[23];
	argv[base++] = ppath;
	/* grep's context after an encoding-error line depends on its buffer */
	bool buffer_bound = o.utf8 && (o.context == 1 || o.context == 3) && !o.text;

	struct pattern *pats = malloc((plen + 1) * sizeof *pats);
	if (!pats)
		abort();
	size_t n_pats = split_patterns(pat_file, plen, pats);
	if (o.utf8 && !setlocale(LC_CTYPE, "C.UTF-8")) /* for pcre2_comparable's mbrlen */
		abort();
	/* PCRE2 drops a pattern holding -z's record end, as grep's regex matcher does */
	bool spans = spans_records(&o, pats, n_pats), pcre2_ok = !spans && pcre2_comparable(&o, pats, n_pats);
	setlocale(LC_ALL, "C");

	struct run runs[N_VARIANTS];
	size_t done = 0;
	char label[80], dash[] = "-";
	snprintf(label, sizeof label, "--label=%s", tpath);
	for (size_t v = 0; v < N_VARIANTS; v++) {
		if ((variants[v].tiny_reads && buffer_bound) || (variants[v].cut && spans) ||
		    (variants[v].pipe && o.tab) ||
		    (variants[v].pcre2 && !pcre2_ok))
			continue;
		int argc = base;
		char copies[4][32];
		for (size_t k = 0; k < 4 && variants[v].args[k]; k++) {
			snprintf(copies[k], sizeof copies[k], "%s", variants[v].args[k]);
			argv[argc++] = copies[k];
		}
		int saved_in = -1;
		if (variants[v].pipe) {
			saved_in = stdin_pipe(text, text_len);
			argv[argc++] = label;
			argv[argc++] = dash;
		} else {
			argv[argc++] = tpath;
		}
		argv[argc] = NULL;
		run_acgrep(argv, argc, &runs[done]);
		if (saved_in >= 0 && (dup2(saved_in, STDIN_FILENO) < 0 || close(saved_in) != 0))
			abort();
		if (done > 0)
			same(&runs[0], variants[0].name, &runs[done], variants[v].name, argv, argc, pat_file,
			     plen, text, text_len);
		done++;
	}
	struct run want = { 0 };
	if (expected(&o, pats, n_pats, text, text_len, &want)) {
		argv[base] = tpath;
		same(&want, "naive", &runs[0], variants[0].name, argv, base + 1, pat_file, plen, text,
		     text_len);
	}
	free(want.out);
	free(pats);
	for (size_t k = 0; k < done; k++) {
		free(runs[k].out);
		free(runs[k].err);
	}
	close(pfd);
	close(tfd);
	return 0;
}
