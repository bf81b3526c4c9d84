/* SPDX-License-Identifier: MIT */
/* test_search.c - the whole pipeline (input -> search -> matcher -> print)
 * through every scan path and I/O path against grep -F.
 *
 * For each case and option set, GNU grep's output is the reference; acgrep's
 * modules run in-process on the same file for every combination of scan path
 * (DFA, bitmap, memchr), input path (mmap, read) and read chunk (1, 2, 3, 7,
 * 64 bytes and the default), with stdout redirected to a temporary file.
 * The texts put matches at offsets 0..130 of a line and across chunk seams.
 * A file truncated between its mapping and its search (the first window
 * faults) must print what grep prints on the shorter file.  Some option
 * sets run in C.UTF-8 too, where lines (and under -o matches) that are
 * not valid UTF-8 are not printed (binary.h).
 */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ac.h"
#include "input/input.h"
#include "match/matcher.h"
#include "narrow.h"
#include "options/config.h"
#include "output/print.h"
#include "pattern_list.h"
#include "search/search.h"

static int passed, failed;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void spew(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	fwrite(data, 1, len, f);
	fclose(f);
}

/* An option set, named by its grep arguments and locale (failures print
 * them). */
struct optset {
	const char *grep_args;
	const char *locale;   /* LC_ALL for grep and LC_CTYPE here; NULL: "C" */
	bool only, count, invert, number, byte, word, icase, line;
	long long context;
};

static const struct optset optsets[] = {
	{ .grep_args = "", .context = -1 },
	{ .grep_args = "-o -b", .only = 1, .byte = 1, .context = -1 },
	{ .grep_args = "-c", .count = 1, .context = -1 },
	{ .grep_args = "-v -n", .invert = 1, .number = 1, .context = -1 },
	{ .grep_args = "-n -b", .number = 1, .byte = 1, .context = -1 },
	{ .grep_args = "-w -o", .only = 1, .word = 1, .context = -1 },
	{ .grep_args = "-i -o", .only = 1, .icase = 1, .context = -1 },
	{ .grep_args = "-x", .line = 1, .context = -1 },
	{ .grep_args = "-n -C 1", .number = 1, .context = 1 },
	/* lines and matches that are not valid UTF-8 are suppressed */
	{ .grep_args = "", .locale = "C.UTF-8", .context = -1 },
	{ .grep_args = "-o -b", .locale = "C.UTF-8", .only = 1, .byte = 1, .context = -1 },
	{ .grep_args = "-v -n", .locale = "C.UTF-8", .invert = 1, .number = 1, .context = -1 },
	{ .grep_args = "-n -C 1", .locale = "C.UTF-8", .number = 1, .context = 1 },
};

static const char *locale_of(const struct optset *o)
{
	return o->locale ? o->locale : "C";
}

static const char *tmpdir;

/* Runs acgrep's modules on `file` and returns what they printed; the file
 * is truncated to `cut` bytes between opening (mapping) and searching it
 * unless `cut` is SIZE_MAX. */
static char *run_acgrep(const struct optset *o, const struct pattern *items, size_t np, const char *file,
			int scan_path, enum input_io io, size_t chunk, size_t cut, size_t *out_len)
{
	static struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	struct pattern_set ps = pattern_list(items, np); /* the matcher takes it */
	cfg.only_matching = o->only;
	cfg.count = o->count;
	cfg.invert = o->invert;
	cfg.line_number = o->number;
	cfg.byte_offset = o->byte;
	cfg.word_regexp = o->word;
	cfg.ignore_case = o->icase;
	cfg.line_regexp = o->line;
	cfg.before = cfg.after = o->context;
	cfg.max_count = -1;
	cfg.with_filename = 0;
	cfg.group_separator = "--";
	cfg.binary = BINARY_BINARY;
	cfg.utf8_locale = o->locale != NULL;
	setlocale(LC_CTYPE, locale_of(o));
	struct match_options mo = {
		.ignore_case = o->icase,
		.word = o->word,
		.line = o->line,
		.utf8 = cfg.utf8_locale,
		.eol = '\n',
		.scan_path = scan_path,
		.word_ignores_before_from = o->only && o->word,
		.nul_ends_lines = true,
		.simd = 0,
		.word_regex_rules = false,
		.threads = 1,
	};
	const char *err;
	struct matcher *m = matcher_ac_new(&ps, &mo, &err);
	struct outbuf ob;
	outbuf_init(&ob, false);
	struct printer pr;
	const struct print_options po = print_options_of(&cfg);
	const struct search_options so = search_options_of(&cfg);
	printer_init(&pr, &ob, &po, m, NULL);
	struct searcher s = { .opt = &so, .matcher = m, .sink = printer_sink(&pr) };
	char outpath[256];
	snprintf(outpath, sizeof outpath, "%s/acgrep.out", tmpdir);
	fflush(stdout);
	int saved = dup(1);
	int fd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 1);
	close(fd);
	struct input_options iopt = { .io = io, .read_chunk = chunk, .eol = '\n', .keep_lines = o->context > 0 ? (size_t)o->context : 0 };
	struct input in;
	struct search_result res;
	if (input_open(&in, file, &iopt) == 0) {
		if (cut != SIZE_MAX && truncate(file, (off_t)cut) != 0)
			perror(file);
		search_input(&s, &in, file, false, &res);
		input_close(&in);
		if (cfg.count)
			print_count(&pr, file, res.selected);
	}
	outbuf_flush(&ob);
	dup2(saved, 1);
	close(saved);
	printer_free(&pr);
	outbuf_free(&ob);
	matcher_free(m);
	return slurp(outpath, out_len);
}

/* ThreadSanitizer cannot hand a SIGBUS raised inside one of its
 * interceptors (memchr over a mapping whose file was truncated) to the
 * input guard, so its build (make tsan) skips the truncated files; every
 * other build runs them. */
#if defined(__SANITIZE_THREAD__)
#define TRUNCATION_TESTED 0
#else
#define TRUNCATION_TESTED 1
#endif

/* The file holds text[0..tlen) when opened; with `cut` other than
 * SIZE_MAX it is truncated to `cut` bytes before it is searched, and grep
 * is asked about that much (a mapped input faults at its first window and
 * reads on with read(), printing what grep prints). */
static void check_cut(const char *name, const char *const *pats, size_t np, const char *text, size_t tlen,
		      size_t cut)
{
	char file[256], patfile[256], cmd[1024], refpath[256];
	snprintf(file, sizeof file, "%s/in.txt", tmpdir);
	snprintf(patfile, sizeof patfile, "%s/pats.txt", tmpdir);
	snprintf(refpath, sizeof refpath, "%s/grep.out", tmpdir);
	spew(file, text, cut == SIZE_MAX ? tlen : cut);
	struct pattern items[16];
	char joined[1024];
	size_t jl = 0;
	for (size_t i = 0; i < np; i++) {
		items[i].bytes = pats[i];
		items[i].len = strlen(pats[i]);
		jl += (size_t)snprintf(joined + jl, sizeof joined - jl, "%s\n", pats[i]);
	}
	spew(patfile, joined, jl);
	static const int scan_paths[] = { AC_PATH_DFA, AC_PATH_BITMAP, AC_PATH_MEMCHR, AC_PATH_TEDDY,
					  AC_PATH_HASH };
	static const size_t chunks[] = { 1, 2, 3, 7, 64, 0 };
	for (size_t oi = 0; oi < sizeof optsets / sizeof *optsets; oi++) {
		const struct optset *o = &optsets[oi];
		/* Truncated files in the C locale only: with a chunk of 1 and
		 * context in C.UTF-8, mapped windows follow read()'s geometry
		 * (input_read_windows) and stay in the mapping's last page,
		 * whose bytes past the new end read as NULs: the file turns
		 * binary where grep's read() sees no NUL. */
		if (o->locale && cut != SIZE_MAX)
			continue;
		snprintf(cmd, sizeof cmd, "LC_ALL=%s grep -F %s -f %s %s > %s 2>/dev/null", locale_of(o), o->grep_args,
			 patfile, file, refpath);
		if (system(cmd) < 0)
			continue;
		size_t ref_len = 0;
		char *ref = slurp(refpath, &ref_len);
		if (!ref)
			continue;
		for (size_t si = 0; si < sizeof scan_paths / sizeof *scan_paths; si++)
			for (size_t ci = 0; ci < sizeof chunks / sizeof *chunks; ci++)
				for (int io = 0; io < 2; io++) {
					if (io == 0 && ci > 0)
						continue; /* chunks only matter to read() */
					size_t got_len;
					if (cut != SIZE_MAX)
						spew(file, text, tlen);
					char *got = run_acgrep(o, items, np, file, scan_paths[si],
							       io == 0 ? INPUT_IO_MMAP : INPUT_IO_READ, chunks[ci], cut,
							       &got_len);
					if (got && got_len == ref_len && memcmp(got, ref, ref_len) == 0) {
						passed++;
					} else {
						failed++;
						fprintf(stderr, "FAIL %s [LC_ALL=%s grep -F %s] path %d io %s chunk %zu: got %zu bytes, want %zu\n",
							name, locale_of(o), o->grep_args, scan_paths[si], io ? "read" : "mmap", chunks[ci],
							got ? got_len : 0, ref_len);
					}
					free(got);
				}
		free(ref);
	}
}

static void check(const char *name, const char *const *pats, size_t np, const char *text, size_t tlen)
{
	check_cut(name, pats, np, text, tlen, SIZE_MAX);
}

int main(void)
{
	char dir[] = "/tmp/acgrep-test-search.XXXXXX";
	tmpdir = mkdtemp(dir);
	if (!tmpdir)
		return 2;
	/* matches at every offset 0..130 of a line, and across 64-byte blocks */
	static char text[20000];
	size_t tl = 0;
	for (int off = 0; off <= 130; off++) {
		for (int i = 0; i < off; i++)
			text[tl++] = (char)('a' + (i * 7 + off) % 26);
		memcpy(text + tl, off % 3 ? "needle" : "Needle_x", off % 3 ? 6 : 8);
		tl += off % 3 ? 6 : 8;
		memcpy(text + tl, off % 5 ? " tail\n" : "\n", off % 5 ? 6 : 1);
		tl += off % 5 ? 6 : 1;
	}
	memcpy(text + tl, "no newline needle", 17);
	tl += 17;
	const char *one[] = { "needle" };
	check("one pattern", one, 1, text, tl);
	const char *several[] = { "needle", "eedl", "tail", "x", "le_" };
	check("several", several, 5, text, tl);
	const char *he[] = { "he", "she", "his", "hers" };
	const char *ushers = "ushers\nhishe\nsheher hers\n\nhe\n";
	check("he/she/his/hers", he, 4, ushers, strlen(ushers));
	/* truncated after the mapping was made: mid-line, on a page boundary,
	 * to one line, to nothing */
	input_guard_install();
	static char big[64000];
	size_t bl = 0;
	while (bl + tl <= sizeof big) {
		memcpy(big + bl, text, tl);
		big[bl + tl - 1] = '\n';
		bl += tl;
	}
	static const size_t cuts[] = { 20001, 8192, 6, 0 };
	if (!TRUNCATION_TESTED)
		printf("truncated files: not under ThreadSanitizer (see TRUNCATION_TESTED)\n");
	for (size_t c = 0; TRUNCATION_TESTED && c < sizeof cuts / sizeof *cuts; c++) {
		char what[64];
		snprintf(what, sizeof what, "truncated to %zu", cuts[c]);
		check_cut(what, several, 5, big, bl, cuts[c]);
	}
	/* not valid UTF-8: whole lines, and under -o one of two matches */
	const char *enc = "needle ok\nbad \377 needle\nneedle\303\n\303\251needle x\nplain\n"
			  "x\377 needle needle\nend needle \377 n\n";
	const char *enc_pats[] = { "needle", "\377 n" };
	check("encoding errors", enc_pats, 2, enc, strlen(enc));
	const char *crlf = "foo\r\nbar foo\r\n\r\nfoo";
	const char *foo[] = { "foo", "o\r" };
	check("crlf", foo, 2, crlf, strlen(crlf));
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", tmpdir);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
