/* main.c - acgrep's driver: options, matcher, then the inputs.
 *
 * Owns: the exit status (0 a line was selected, 1 none, 2 trouble; with -q
 * a selected line wins over trouble), the choice between searching on this
 * thread (run.c) and on worker threads (pool.c), and which fixed-string
 * rules of GNU grep apply (the matcher options).  Everything else is
 * delegated.
 */
#include <errno.h>
#include <locale.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "config.h"
#include "input.h"
#include "matcher.h"
#include "opts.h"
#include "pool.h"
#include "print.h"
#include "run.h"
#include "search.h"
#include "walk.h"

/* Threads to use: --threads, else one per CPU this process may run on. */
static unsigned thread_count(const struct config *cfg)
{
	if (cfg->threads > 0)
		return cfg->threads;
	cpu_set_t set;
	long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
							      : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

/* Whether the worker threads can help: several inputs (or a walk), or one
 * regular file large enough to be split. */
static bool worth_threads(const struct config *cfg)
{
	if (cfg->recurse != RECURSE_NONE || cfg->n_files > 1 || cfg->files_from)
		return true;
	struct stat st;
	uint64_t segment = cfg->segment_size ? cfg->segment_size : POOL_SEGMENT_SIZE;
	return cfg->n_files == 1 && pool_can_split(cfg) && strcmp(cfg->files[0], "-") != 0 &&
	       stat(cfg->files[0], &st) == 0 && S_ISREG(st.st_mode) &&
	       (uint64_t)st.st_size / segment >= 2;
}

/* Takes cfg->patterns for the engine into *ps (cfg's set is left empty;
 * no pattern at all becomes "", see main).  False when out of memory (ps
 * then empty). */
static bool engine_patterns(struct config *cfg, struct pattern_set *ps)
{
	*ps = cfg->patterns;
	cfg->patterns = (struct pattern_set){ NULL, NULL, 0, false };
	if (ps->count > 0)
		return true;
	free(ps->storage);
	free(ps->end);
	*ps = (struct pattern_set){ calloc(1, 1), calloc(1, sizeof *ps->end), 1, false };
	if (ps->storage && ps->end)
		return true;
	free(ps->storage);
	free(ps->end);
	*ps = (struct pattern_set){ NULL, NULL, 0, false };
	return false;
}

/* Drops in place each pattern containing NUL where NUL ends lines and such
 * a pattern can never match: in binary files unless they are searched as
 * text, and with -z where grep would use its regex matcher (its fixed-
 * string matcher, kwset, finds one across records, and the records it
 * spans are selected as one line; the PCRE2 engine does not follow it). */
static void drop_nul_patterns(const struct config *cfg, bool kwset, struct pattern_set *ps)
{
	if (!ps->holds_nul ||
	    (cfg->null_data ? kwset && cfg->engine != ENGINE_PCRE2 : cfg->binary == BINARY_TEXT))
		return;
	size_t kept = 0, from = 0;
	uint32_t used = 0;
	for (size_t i = 0; i < ps->count; i++) {
		size_t len = ps->end[i] - from;
		const char *p = ps->storage + from;
		from = (size_t)ps->end[i] + 1; /* read before end[kept] is written */
		if (memchr(p, '\0', len))
			continue;
		memmove(ps->storage + used, p, len + 1); /* with its NUL */
		ps->end[kept++] = used + (uint32_t)len;
		used += (uint32_t)len + 1;
	}
	ps->count = kept;
	ps->holds_nul = false;
}

/* Does a UTF-8 pattern hold a character that -i folds to a character of
 * another length, or a multibyte character with case counterparts?  Then GNU
 * grep -F -i hands the search to its regex matcher. */
static bool needs_multibyte_fold(struct pattern p)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t i = 0; i < p.len;) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, p.bytes + i, p.len - i, &st);
		if (n == (size_t)-1 || n == (size_t)-2)
			return true;
		if (n == 0)
			n = 1;
		wint_t up = towupper((wint_t)wc), low = towlower((wint_t)wc);
		if ((n > 1 && (up != (wint_t)wc || low != (wint_t)wc)) || wc == L'i' || wc == L'I' ||
		    wc == L's' || wc == L'S')
			return true;
		i += n;
	}
	return false;
}

/* True when every pattern of ps is the same string (grep drops duplicates). */
static bool one_distinct_pattern(const struct pattern_set *ps)
{
	if (ps->count == 0)
		return false;
	struct pattern first = pattern_at(ps, 0);
	for (size_t i = 1; i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		if (p.len != first.len || memcmp(p.bytes, first.bytes, first.len) != 0)
			return false;
	}
	return true;
}

/* GNU grep 3.8 searches fixed strings with its kwset matcher unless: in a
 * single-byte locale there is one distinct pattern and -w; in UTF-8 a
 * pattern is not valid UTF-8, or -i meets a character folded by its regex
 * matcher.  The two matchers differ in -w and -x -w details (match_options
 * and config.match_takes_eol). */
static bool grep_uses_kwset(const struct config *cfg, const struct pattern_set *ps)
{
	if (!cfg->utf8_locale)
		return !(cfg->word_regexp && one_distinct_pattern(ps));
	for (size_t i = 0; i < ps->count; i++) {
		mbstate_t st;
		memset(&st, 0, sizeof st);
		struct pattern p = pattern_at(ps, i);
		for (size_t k = 0; k < p.len;) {
			if ((unsigned char)p.bytes[k] < 0x80) {
				k++;
				continue;
			}
			size_t n = mbrlen(p.bytes + k, p.len - k, &st);
			if (n == (size_t)-1 || n == (size_t)-2)
				return false;
			k += n ? n : 1;
		}
		if (cfg->ignore_case && needs_multibyte_fold(p))
			return false;
	}
	return true;
}

/* Walks one operand; a walk that ran out of memory is trouble. */
static void search_operand(const char *path, struct run *r, walk_file_fn on_file,
			   walk_error_fn on_error, void *ctx)
{
	if (walk_operand(path, &r->walk, on_file, on_error, ctx) < 0) {
		printer_flush(&r->pr);
		fprintf(stderr, "acgrep: %s: %s\n", path, strerror(errno));
		r->trouble = true;
	}
}

/* --files-from / --files0-from: searches each name of the list in turn, as
 * an operand.  An empty name, "-" in a list read from standard input, or
 * a list that cannot be read is trouble, named on stderr; the other names
 * are still searched. */
static void search_file_list(const struct config *cfg, struct run *r, walk_file_fn on_file,
			     walk_error_fn on_error, void *ctx)
{
	bool from_stdin = strcmp(cfg->files_from, "-") == 0;
	FILE *list = from_stdin ? stdin : fopen(cfg->files_from, "r");
	const char *list_name = from_stdin ? cfg->label : cfg->files_from;
	if (!list) {
		printer_flush(&r->pr);
		fprintf(stderr, "acgrep: %s: %s\n", list_name, strerror(errno));
		r->trouble = true;
		return;
	}
	char *name = NULL;
	size_t cap = 0;
	ssize_t len;
	for (uintmax_t item = 1; !r->stop && (len = getdelim(&name, &cap, cfg->files_from_end, list)) >= 0;
	     item++) {
		if (len > 0 && name[len - 1] == cfg->files_from_end)
			name[--len] = '\0';
		const char *why = len == 0 ? "invalid zero-length file name"
				  : from_stdin && strcmp(name, "-") == 0
				  ? "file name '-' not allowed when reading file names from standard input"
				  : NULL;
		if (why) {
			printer_flush(&r->pr);
			fprintf(stderr, "acgrep: %s:%ju: %s\n", list_name, item, why);
			r->trouble = true;
			continue;
		}
		search_operand(name, r, on_file, on_error, ctx);
	}
	if (ferror(list)) {
		printer_flush(&r->pr);
		fprintf(stderr, "acgrep: %s: %s\n", list_name, strerror(errno));
		r->trouble = true;
	}
	free(name);
	if (!from_stdin)
		fclose(list);
}

static struct matcher *build_matcher(struct config *cfg)
{
	struct match_options mo = { cfg->ignore_case, cfg->word_regexp, cfg->line_regexp,
				    cfg->utf8_locale, config_eol(cfg), cfg->scan_path, false,
				    cfg->binary != BINARY_TEXT && !cfg->null_data, cfg->simd, false,
				    thread_count(cfg) };
	const char *error = NULL;
	struct pattern_set ps;
	if (!engine_patterns(cfg, &ps)) {
		fprintf(stderr, "acgrep: memory exhausted\n");
		return NULL;
	}
	bool grep_kwset = grep_uses_kwset(cfg, &ps), kwset = !cfg->word_regexp || grep_kwset;
	drop_nul_patterns(cfg, grep_kwset, &ps);
	mo.word_ignores_before_from = cfg->word_regexp && !cfg->line_regexp && kwset;
	cfg->match_takes_eol = cfg->word_regexp && cfg->line_regexp && !kwset;
	mo.word_regex_rules = cfg->word_regexp && !cfg->line_regexp && !mo.word_ignores_before_from;
	struct matcher *m = cfg->engine == ENGINE_PCRE2 ? matcher_pcre2_new(&ps, &mo, &error)
							: matcher_ac_new(&ps, &mo, &error);
	free(ps.storage); /* matcher_ac_new took it: nothing left */
	free(ps.end);
	if (!m)
		fprintf(stderr, "acgrep: %s\n", error ? error : "cannot compile the patterns");
	return m;
}

int main(int argc, char **argv)
{
	static struct config cfg;
	setlocale(LC_ALL, "");
	int status = opts_parse(argc, argv, &cfg);
	if (status >= 0)
		return status;
	input_guard_install();
	if (cfg.patterns.count == 0) {
		/* As GNU grep: no pattern at all (-f /dev/null) matches nothing,
		 * done as the empty pattern with -v flipped, -w and -x dropped;
		 * this decides colours and -o output too. */
		cfg.invert = !cfg.invert;
		cfg.word_regexp = cfg.line_regexp = false;
	}

	struct run r = { .cfg = &cfg };
	struct matcher *m = build_matcher(&cfg);
	if (!m || printer_init(&r.pr, &cfg, m) != 0) {
		matcher_free(m);
		opts_free(&cfg);
		return 2;
	}
	r.searcher = (struct searcher){ .cfg = &cfg, .matcher = m, .sink = printer_sink(&r.pr) };
	r.walk = (struct walk_options){
		(int)cfg.recurse, cfg.includes, cfg.n_includes, cfg.excludes, cfg.n_excludes,
		cfg.exclude_dirs, cfg.n_exclude_dirs, cfg.filter_order, false,
	};
	bool recurse = cfg.recurse != RECURSE_NONE;
	struct stat out_st, null_st;
	r.searcher.dev_null = fstat(STDOUT_FILENO, &out_st) == 0 && stat("/dev/null", &null_st) == 0 &&
			      out_st.st_ino == null_st.st_ino && out_st.st_dev == null_st.st_dev;
	unsigned threads = thread_count(&cfg);
	struct pool *pool = pool_usable(&cfg, threads) && worth_threads(&cfg)
				    ? pool_new(&r, threads, cfg.segment_size) : NULL;
	walk_file_fn on_file = pool ? pool_add_path : run_search_path;
	walk_error_fn on_error = pool ? pool_walk_error : run_walk_error;
	void *ctx = pool ? (void *)pool : (void *)&r;
	if (cfg.n_files == 0 && !cfg.files_from) {
		r.walk.omit_dot_slash = recurse;
		search_operand(recurse ? "." : "-", &r, on_file, on_error, ctx);
	}
	for (size_t i = 0; i < cfg.n_files && !r.stop; i++)
		search_operand(cfg.files[i], &r, on_file, on_error, ctx);
	if (cfg.files_from && !r.stop)
		search_file_list(&cfg, &r, on_file, on_error, ctx);
	if (pool)
		pool_finish(pool);
	printer_flush(&r.pr);
	r.trouble |= printer_failed();
	printer_free(&r.pr);
	matcher_free(m);
	opts_free(&cfg);
	if (r.trouble && !(cfg.quiet && r.matched))
		return 2;
	return r.matched ? 0 : 1;
}
