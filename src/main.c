/* main.c - acgrep's driver: options, matcher, then each input in turn.
 *
 * Owns: the exit status (0 a line was selected, 1 none, 2 trouble; with -q
 * a selected line wins over trouble), the per-input messages on stderr, and
 * the per-file summaries (-c, -l, -L).  Everything else is delegated.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "config.h"
#include "input.h"
#include "matcher.h"
#include "opts.h"
#include "print.h"
#include "search.h"
#include "walk.h"

struct run {
	const struct config *cfg;
	struct searcher searcher;
	struct printer pr;
	struct walk_options walk;
	bool matched;
	bool trouble;
};

static void complain(struct run *r, const char *name, const char *what)
{
	if (r->cfg->no_messages)
		return;
	printer_flush(&r->pr);
	fprintf(stderr, "acgrep: %s: %s\n", name, what);
}

static void report_result(struct run *r, const char *name, const struct search_result *res)
{
	const struct config *cfg = r->cfg;
	if (res->selected > 0)
		r->matched = true;
	if (cfg->list == LIST_MATCHING && res->selected > 0)
		print_file_name(&r->pr);
	else if (cfg->list == LIST_NONMATCHING && res->selected == 0)
		print_file_name(&r->pr);
	else if (cfg->list == LIST_NONE && (cfg->count || cfg->count_matches))
		print_count(&r->pr, res->selected);
	if (res->read_error) {
		complain(r, name, strerror(res->read_errno));
		r->trouble = true;
	}
	if (res->truncated) {
		complain(r, name, "file shrank while being searched");
		r->trouble = true;
	}
	if (res->binary_matched) {
		printer_flush(&r->pr);
		fprintf(stderr, "acgrep: %s: binary file matches\n", name);
	}
	if (cfg->quiet && r->matched) {
		printer_flush(&r->pr);
		exit(0);
	}
}

static int search_path(const char *path, bool command_line, void *ctx)
{
	struct run *r = ctx;
	const struct config *cfg = r->cfg;
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? (cfg->label ? cfg->label : "(standard input)") : path;
	struct input_options io = {
		cfg->io == IO_MMAP ? INPUT_IO_MMAP : cfg->io == IO_READ ? INPUT_IO_READ : INPUT_IO_AUTO,
		cfg->read_chunk, cfg->null_data ? '\0' : '\n', cfg->before > 0 ? (size_t)cfg->before : 0
	};
	struct stat st;
	if (cfg->devices == DEVS_SKIP && command_line && !is_stdin && stat(path, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	struct input in;
	if (input_open(&in, is_stdin ? NULL : path, &io) != 0) {
		if (errno == EISDIR && cfg->directories == DIRS_SKIP)
			return 0;
		complain(r, name, strerror(errno));
		r->trouble = true;
		return 0;
	}
	if (command_line && !is_stdin && walk_excluded_file(path, &r->walk, true)) {
		input_close(&in);
		return 0;
	}
	if (!cfg->quiet && cfg->list == LIST_NONE && !cfg->count && !cfg->count_matches &&
	    cfg->max_count != 0 && input_same_file(&in, STDOUT_FILENO)) {
		complain(r, name, "input file is also the output");
		r->trouble = true;
		input_close(&in);
		return 0;
	}
	r->pr.show_name = cfg->with_filename >= 0 ? cfg->with_filename : (cfg->n_files > 1 || !command_line);
	struct search_result res;
	search_input(&r->searcher, &in, name, &res);
	if (is_stdin && res.stop_offset != UINT64_MAX) /* leave stdin after the last line used */
		lseek(in.fd, (off_t)(in.start + res.stop_offset), SEEK_SET);
	input_close(&in);
	report_result(r, name, &res);
	return 0;
}

static void walk_error(const char *path, int err, void *ctx)
{
	struct run *r = ctx;
	if (err == ELOOP) {
		complain(r, path, "warning: recursive directory loop");
		return;
	}
	complain(r, path, strerror(err));
	r->trouble = true;
}

/* A pattern containing NUL can only match text with NUL bytes, and unless
 * binary files are searched as text those bytes end lines: drop it.  The
 * list is copied only when there is one to drop (a huge -f list is not). */
static struct pattern_set usable_patterns(const struct config *cfg)
{
	struct pattern_set ps = cfg->patterns;
	if (ps.count == 0) { /* see main: no pattern at all is "" inverted */
		static struct pattern empty = { "", 0 };
		ps.items = &empty;
		ps.count = 1;
		return ps;
	}
	if (cfg->binary == BINARY_TEXT || cfg->null_data)
		return ps;
	size_t with_nul = 0;
	for (size_t i = 0; i < ps.count && !with_nul; i++)
		with_nul = memchr(ps.items[i].bytes, '\0', ps.items[i].len) != NULL;
	if (!with_nul)
		return ps;
	ps.items = malloc((ps.count + 1) * sizeof *ps.items);
	if (!ps.items)
		return cfg->patterns;
	ps.count = 0;
	for (size_t i = 0; i < cfg->patterns.count; i++)
		if (!memchr(cfg->patterns.items[i].bytes, '\0', cfg->patterns.items[i].len))
			ps.items[ps.count++] = cfg->patterns.items[i];
	return ps;
}

/* Does a UTF-8 pattern hold a character that -i folds to a character of
 * another length, or a multibyte character with case counterparts?  Then GNU
 * grep -F -i hands the search to its regex matcher. */
static bool needs_multibyte_fold(const struct pattern *p)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t i = 0; i < p->len;) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, p->bytes + i, p->len - i, &st);
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

/* GNU grep 3.8 searches fixed strings with its kwset matcher unless: in a
 * single-byte locale there is one distinct pattern and -w; in UTF-8 a
 * pattern is not valid UTF-8, or -i meets a character folded by its regex
 * matcher.  Only the kwset matcher has the -w quirk in match_options. */
static bool grep_kwset_word_quirk(const struct config *cfg, const struct pattern_set *ps)
{
	if (!cfg->word_regexp || cfg->line_regexp)
		return false;
	if (!cfg->utf8_locale) {
		for (size_t i = 1; i < ps->count; i++)
			if (ps->items[i].len != ps->items[0].len ||
			    memcmp(ps->items[i].bytes, ps->items[0].bytes, ps->items[0].len) != 0)
				return true;
		return false;
	}
	for (size_t i = 0; i < ps->count; i++) {
		mbstate_t st;
		memset(&st, 0, sizeof st);
		const struct pattern *p = &ps->items[i];
		for (size_t k = 0; k < p->len;) {
			size_t n = mbrlen(p->bytes + k, p->len - k, &st);
			if (n == (size_t)-1 || n == (size_t)-2)
				return false;
			k += n ? n : 1;
		}
		if (cfg->ignore_case && needs_multibyte_fold(p))
			return false;
	}
	return true;
}

static struct matcher *build_matcher(const struct config *cfg)
{
	struct match_options mo = { cfg->ignore_case, cfg->word_regexp, cfg->line_regexp,
				    cfg->utf8_locale, cfg->null_data ? '\0' : '\n', cfg->scan_path, false,
				    cfg->binary != BINARY_TEXT && !cfg->null_data, cfg->simd, false };
	const char *error = NULL;
	struct pattern_set ps = usable_patterns(cfg);
	mo.word_ignores_before_from = grep_kwset_word_quirk(cfg, &ps);
	mo.word_regex_rules = cfg->word_regexp && !cfg->line_regexp && !mo.word_ignores_before_from;
	struct matcher *m = cfg->engine == ENGINE_PCRE2 ? matcher_pcre2_new(&ps, &mo, &error)
							: matcher_ac_new(&ps, &mo, &error);
	if (ps.items != cfg->patterns.items && cfg->patterns.count > 0)
		free(ps.items);
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
	r.searcher = (struct searcher){ &cfg, m, &r.pr, false, false };
	r.walk = (struct walk_options){
		(int)cfg.recurse, cfg.includes, cfg.n_includes, cfg.excludes, cfg.n_excludes,
		cfg.exclude_dirs, cfg.n_exclude_dirs, cfg.filter_order, false,
	};
	bool recurse = cfg.recurse != RECURSE_NONE;
	struct stat out_st, null_st;
	r.searcher.dev_null = fstat(STDOUT_FILENO, &out_st) == 0 && stat("/dev/null", &null_st) == 0 &&
			      out_st.st_ino == null_st.st_ino && out_st.st_dev == null_st.st_dev;
	if (cfg.n_files == 0) {
		r.walk.omit_dot_slash = recurse;
		walk_operand(recurse ? "." : "-", &r.walk, search_path, walk_error, &r);
	}
	for (size_t i = 0; i < cfg.n_files; i++)
		walk_operand(cfg.files[i], &r.walk, search_path, walk_error, &r);
	printer_flush(&r.pr);
	printer_free(&r.pr);
	matcher_free(m);
	opts_free(&cfg);
	if (r.trouble && !(cfg.quiet && r.matched))
		return 2;
	return r.matched ? 0 : 1;
}
