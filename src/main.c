/* main.c - acgrep's driver: options, matcher, then the inputs.
 *
 * Owns: the exit status (0 a line was selected, 1 none, 2 trouble; with -q
 * a selected line wins over trouble), the choice between searching on this
 * thread (run.c) and on worker threads (pool.c), and which fixed-string
 * rules of GNU grep apply (the matcher options).  Everything else is
 * delegated.
 */
#include <locale.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
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
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		return (unsigned)CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* Whether the worker threads can help: several inputs (or a walk), or one
 * regular file large enough to be split. */
static bool worth_threads(const struct config *cfg)
{
	if (cfg->recurse != RECURSE_NONE || cfg->n_files > 1)
		return true;
	struct stat st;
	uint64_t segment = cfg->segment_size ? cfg->segment_size : POOL_SEGMENT_SIZE;
	return cfg->n_files == 1 && pool_can_split(cfg) && strcmp(cfg->files[0], "-") != 0 &&
	       stat(cfg->files[0], &st) == 0 && S_ISREG(st.st_mode) &&
	       (uint64_t)st.st_size / segment >= 2;
}

/* A pattern containing NUL can only match text with NUL bytes, and unless
 * binary files are searched as text those bytes end lines: drop it.  The
 * list is copied only when there is one to drop (a huge -f list is not);
 * *copy is then set to that copy, which the caller frees.  False when out
 * of memory. */
static bool usable_patterns(const struct config *cfg, struct pattern_set *ps, struct pattern_set *copy)
{
	static char no_bytes[1];
	static uint32_t no_end[1];
	*ps = cfg->patterns;
	*copy = (struct pattern_set){ NULL, NULL, 0 };
	if (ps->count == 0) { /* see main: no pattern at all is "" inverted */
		*ps = (struct pattern_set){ no_bytes, no_end, 1 };
		return true;
	}
	if (cfg->binary == BINARY_TEXT || cfg->null_data)
		return true;
	bool with_nul = false;
	for (size_t i = 0; i < ps->count && !with_nul; i++) {
		struct pattern p = pattern_at(ps, i);
		with_nul = memchr(p.bytes, '\0', p.len) != NULL;
	}
	if (!with_nul)
		return true;
	copy->storage = malloc((size_t)ps->end[ps->count - 1] + 1);
	copy->end = malloc(ps->count * sizeof *copy->end);
	if (!copy->storage || !copy->end) {
		free(copy->storage);
		free(copy->end);
		return false;
	}
	uint32_t used = 0;
	for (size_t i = 0; i < ps->count; i++) {
		struct pattern p = pattern_at(ps, i);
		if (memchr(p.bytes, '\0', p.len))
			continue;
		memcpy(copy->storage + used, p.bytes, p.len + 1); /* with its NUL */
		copy->end[copy->count++] = used + (uint32_t)p.len;
		used += (uint32_t)p.len + 1;
	}
	*ps = *copy;
	return true;
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

/* Returns to the system the whole `block`-aligned blocks within
 * base[from..to), and the offset where the next call should start: past
 * the last block given back, else `from`. */
static size_t discard_blocks(const char *base, size_t from, size_t to, uintptr_t block)
{
	uintptr_t lo = ((uintptr_t)(base + from) + block - 1) & ~(block - 1);
	uintptr_t hi = (uintptr_t)(base + to) & ~(block - 1);
	if (hi <= lo)
		return from;
	(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
	return (size_t)(hi - (uintptr_t)base);
}

/* Frees ps, giving its pages back first: free() may keep them. */
static void free_patterns(struct pattern_set *ps)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	if (ps->count > 0) {
		discard_blocks(ps->storage, 0, (size_t)ps->end[ps->count - 1] + 1, page);
		discard_blocks((const char *)ps->end, 0, ps->count * sizeof *ps->end, page);
	}
	free(ps->storage);
	free(ps->end);
	*ps = (struct pattern_set){ NULL, NULL, 0 };
}

/* The patterns handed to the engine: the option parser's, or a copy. */
struct engine_patterns {
	struct config *cfg;
	struct pattern_set ps, copy;
	size_t bytes_released, ends_released; /* offsets in ps.storage and ps.end */
};

/* Releasing in whole transparent huge pages: giving back part of one
 * splits it, which costs more than the copy. */
#define RELEASE_BLOCK ((uintptr_t)2 << 20)

/* match_options.patterns_consumed: nothing reads a pattern once the engine
 * copied it, so a huge list is given back as the copy proceeds and freed
 * at the end: the list (duplicates included) and the engine's copy are
 * never both whole, nor the list and the automaton. */
static void release_patterns(void *ctx, size_t done)
{
	struct engine_patterns *ep = ctx;
	if (done < ep->ps.count) {
		size_t bytes = (size_t)ep->ps.end[done - 1] + 1; /* read before its page goes */
		ep->bytes_released = discard_blocks(ep->ps.storage, ep->bytes_released, bytes, RELEASE_BLOCK);
		ep->ends_released = discard_blocks((const char *)ep->ps.end, ep->ends_released,
						   done * sizeof *ep->ps.end, RELEASE_BLOCK);
		return;
	}
	free_patterns(&ep->cfg->patterns);
	free_patterns(&ep->copy);
}

static struct matcher *build_matcher(struct config *cfg)
{
	struct match_options mo = { cfg->ignore_case, cfg->word_regexp, cfg->line_regexp,
				    cfg->utf8_locale, cfg->null_data ? '\0' : '\n', cfg->scan_path, false,
				    cfg->binary != BINARY_TEXT && !cfg->null_data, cfg->simd, false,
				    NULL, NULL };
	const char *error = NULL;
	struct engine_patterns ep = { cfg, { NULL, NULL, 0 }, { NULL, NULL, 0 }, 0, 0 };
	if (!usable_patterns(cfg, &ep.ps, &ep.copy)) {
		fprintf(stderr, "acgrep: memory exhausted\n");
		return NULL;
	}
	bool kwset = !cfg->word_regexp || grep_uses_kwset(cfg, &ep.ps);
	mo.word_ignores_before_from = cfg->word_regexp && !cfg->line_regexp && kwset;
	cfg->match_takes_eol = cfg->word_regexp && cfg->line_regexp && !kwset;
	mo.word_regex_rules = cfg->word_regexp && !cfg->line_regexp && !mo.word_ignores_before_from;
	mo.patterns_consumed = release_patterns;
	mo.patterns_consumed_ctx = &ep;
	struct matcher *m = cfg->engine == ENGINE_PCRE2 ? matcher_pcre2_new(&ep.ps, &mo, &error)
							: matcher_ac_new(&ep.ps, &mo, &error);
	free_patterns(&ep.copy);
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
	r.searcher = (struct searcher){ &cfg, m, &r.pr, false, false, NULL, NULL, NULL };
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
	if (cfg.n_files == 0) {
		r.walk.omit_dot_slash = recurse;
		walk_operand(recurse ? "." : "-", &r.walk, on_file, on_error, ctx);
	}
	for (size_t i = 0; i < cfg.n_files; i++)
		walk_operand(cfg.files[i], &r.walk, on_file, on_error, ctx);
	if (pool)
		pool_finish(pool);
	printer_flush(&r.pr);
	printer_free(&r.pr);
	matcher_free(m);
	opts_free(&cfg);
	if (r.trouble && !(cfg.quiet && r.matched))
		return 2;
	return r.matched ? 0 : 1;
}
