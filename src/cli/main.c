/* SPDX-License-Identifier: MIT */
/* main.c - acgrep's driver: options, matcher, then the inputs.
 *
 * Owns: the exit status (0 a line was selected, 1 none, 2 trouble; with -q
 * a selected line wins over trouble), the number of threads, the choice
 * between searching on this thread (run.c) and on worker threads
 * (pool.c) or by ranges (range.c), the order of the inputs (operands,
 * then --files-from), and --merge (merge.c) in their place.
 * Everything else is delegated.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/input.h"
#include "input/walk.h"
#include "match/matcher.h"
#include "match/pattern_keys.h"
#include "narrow.h"
#include "options/config.h"
#include "opts.h"
#include "opts_compiled.h"
#include "output/json.h"
#include "output/print.h"
#include "output/stats_report.h"
#include "run/pool.h"
#include "run/run.h"
#include "run/tally_run.h"
#include "scaleout/merge.h"
#include "scaleout/range.h"
#include "search/search.h"
#include "search/stats.h"

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
static bool worth_threads(const struct config *cfg, const struct run_options *opt)
{
	if (cfg->recurse != RECURSE_NONE || cfg->n_files > 1 || cfg->files_from)
		return true;
	struct stat st;
	uint64_t segment = cfg->segment_size ? cfg->segment_size : POOL_SEGMENT_SIZE;
	return cfg->n_files == 1 && pool_can_split(opt) && strcmp(cfg->files[0], "-") != 0 &&
	       stat(cfg->files[0], &st) == 0 && S_ISREG(st.st_mode) &&
	       (uint64_t)st.st_size / segment >= 2;
}

/* Walks one operand; a walk that ran out of memory is trouble. */
static void search_operand(const char *path, struct run *r, walk_file_fn on_file,
			   walk_error_fn on_error, void *ctx)
{
	if (walk_operand(path, &r->walk, on_file, on_error, ctx) < 0) {
		outbuf_flush(&r->out);
		fprintf(stderr, "acgrep: %s: %s\n", path, strerror(errno));
		r->trouble = true;
	}
}

/* One --files-from / --files0-from list: searches each of its names in
 * turn, as an operand.  An empty name, "-" in a list read from standard
 * input, or a list that cannot be read is trouble, named on stderr; the
 * other names are still searched. */
static void search_file_list(const struct file_list *fl, struct run *r, walk_file_fn on_file,
			     walk_error_fn on_error, void *ctx)
{
	bool from_stdin = strcmp(fl->path, "-") == 0;
	FILE *list = from_stdin ? stdin : fopen(fl->path, "r");
	const char *list_name = from_stdin ? r->opt->label : fl->path;
	if (!list) {
		outbuf_flush(&r->out);
		fprintf(stderr, "acgrep: %s: %s\n", list_name, strerror(errno));
		r->trouble = true;
		return;
	}
	char *name = NULL;
	size_t cap = 0;
	ssize_t len;
	for (uintmax_t item = 1; !r->stop && (len = getdelim(&name, &cap, fl->end, list)) >= 0;
	     item++) {
		if (len > 0 && name[len - 1] == fl->end)
			name[--len] = '\0';
		const char *why = len == 0 ? "invalid zero-length file name"
				  : from_stdin && strcmp(name, "-") == 0
				  ? "file name '-' not allowed when reading file names from standard input"
				  : NULL;
		if (why) {
			outbuf_flush(&r->out);
			fprintf(stderr, "acgrep: %s:%ju: %s\n", list_name, item, why);
			r->trouble = true;
			continue;
		}
		search_operand(name, r, on_file, on_error, ctx);
	}
	if (ferror(list)) {
		outbuf_flush(&r->out);
		fprintf(stderr, "acgrep: %s: %s\n", list_name, strerror(errno));
		r->trouble = true;
	}
	free(name);
	if (!from_stdin)
		fclose(list);
}

/* The matcher of the run: the compiled set of --compiled, or one built
 * from cfg's patterns; and the pattern names when they are wanted (*keys,
 * else NULL); timed for the statistics (rs, or NULL).  NULL after saying
 * why on stderr. */
static struct matcher *build_matcher(struct config *cfg, struct pattern_keys **keys,
				     struct run_stats *rs)
{
	static struct pattern_keys keys_store;
	const char *error = "memory exhausted";
	struct matcher *m = NULL;
	uint64_t t0 = rs ? stats_now() : 0;
	*keys = pattern_keys_wanted(cfg) ? &keys_store : NULL;
	if (!*keys || pattern_keys_init(*keys, &cfg->patterns, &cfg->tags, cfg->syntax) == 0)
		m = cfg->compiled ? opts_compiled_take(cfg) /* mapped and checked by opts */
				  : matcher_for_config(cfg, &cfg->patterns, thread_count(cfg), &error);
	if (!m) {
		fprintf(stderr, "acgrep: %s\n", error);
		if (*keys)
			pattern_keys_free(*keys);
		return NULL;
	}
	if (*keys)
		pattern_keys_link(*keys, m);
	if (rs)
		rs->compile_nanos = stats_now() - t0;
	return m;
}

/* --count-per-pattern, --all-patterns: this thread's counts and the
 * run's report (tally.h).  False when out of memory. */
static bool setup_tally(struct run *r, const struct search_options *opt,
			const struct pattern_keys *keys)
{
	if (!keys || !tally_wanted(opt))
		return true;
	r->searcher.tally = tally_new(opt, keys);
	r->tally = tally_run_new(r->opt, keys);
	return r->searcher.tally && r->tally;
}

/* Searches the run's inputs: the operands (standard input, or . with -r,
 * without any), then --files-from's list; on worker threads when they can
 * help; --range and --records jobs on this thread, --merge's streams. */
static void search_inputs(struct config *cfg, struct run *r)
{
	r->walk = walk_options_of(cfg);
	bool recurse = cfg->recurse != RECURSE_NONE;
	unsigned threads = thread_count(cfg);
	/* ranges, records and merges: one input at a time on this thread */
	bool by_range = cfg->has_range || cfg->records;
	bool one_input = !recurse && cfg->n_files == 1 && !cfg->files_from;
	struct pool *pool = !by_range && !cfg->merge && pool_usable(r->opt, threads) &&
				    worth_threads(cfg, r->opt)
				    ? pool_new(r, threads, cfg->segment_size, one_input) : NULL;
	walk_file_fn on_file = pool ? pool_add_path : by_range ? range_search_path : run_search_path;
	walk_error_fn on_error = pool ? pool_walk_error : by_range ? range_walk_error : run_walk_error;
	void *ctx = pool ? (void *)pool : (void *)r;
	if (cfg->merge)
		merge_run(r);
	else if (by_range && !range_begin(r))
		r->trouble = r->stop = true;
	if (cfg->n_files == 0 && !cfg->files_from && !cfg->merge && !r->stop) {
		r->walk.omit_dot_slash = recurse;
		search_operand(recurse ? "." : "-", r, on_file, on_error, ctx);
	}
	for (size_t i = 0; i < cfg->n_files && !r->stop && !cfg->merge; i++)
		search_operand(cfg->files[i], r, on_file, on_error, ctx);
	for (size_t i = 0; i < cfg->n_files_from && !r->stop && !cfg->merge; i++)
		search_file_list(&cfg->files_from[i], r, on_file, on_error, ctx);
	if (pool)
		pool_finish(pool);
	if (by_range)
		range_end(r);
}

/* What grep 3.8 notes of stdout (`out`, NULL when it is closed) before it
 * opens anything: the regular file no input may be, and whether it is
 * /dev/null, where the first selected line decides the status.  A pipe, a
 * terminal or a closed stdout is neither; an input opened while stdout is
 * closed takes descriptor 1 and is still not the output. */
static void note_stdout(struct run *r, const struct stat *out)
{
	struct stat null_st;
	r->out_regular = out && S_ISREG(out->st_mode);
	r->searcher.dev_null = out && S_ISCHR(out->st_mode) && stat("/dev/null", &null_st) == 0 &&
			       out->st_ino == null_st.st_ino && out->st_dev == null_st.st_dev;
}

/* A closed stdout or stderr stays closed to the writes meant for it: each
 * is held by /dev/null opened read-only, on which write() fails with EBADF
 * as on a closed descriptor.  Otherwise the first file acgrep opens (an
 * input, a compiled set's temporary file) takes descriptor 1 or 2, so that
 * output could reach a writable file, and a worker closing its input would
 * close the descriptor the main thread writes to. */
static void hold_closed_outputs(void)
{
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int held = open("/dev/null", O_RDONLY);
		if (held >= 0 && held != fd) { /* descriptor 0 was closed too */
			dup2(held, fd);
			close(held);
		}
	}
}

/* Frees what main set up for the run. */
static void run_free(struct run *r, struct matcher *m, struct pattern_keys *keys)
{
	tally_free(r->searcher.tally);
	matcher_memo_free(r->searcher.memo);
	tally_run_free(r->tally);
	json_writer_free(r->json);
	printer_free(&r->pr);
	outbuf_free(&r->out);
	matcher_free(m);
	if (keys)
		pattern_keys_free(keys);
	if (r->stats)
		run_stats_free(r->stats);
}

int main(int argc, char **argv)
{
	static struct config cfg;
	static struct run_stats stats;
	static struct scaleout_options scaleout;
	uint64_t start = stats_now();
	struct stat out_st; /* before anything is opened (note_stdout) */
	bool stdout_open = fstat(STDOUT_FILENO, &out_st) == 0;
	hold_closed_outputs();
	setlocale(LC_ALL, "");
	int status = opts_parse(argc, argv, &cfg);
	if (status >= 0)
		return status;
	if (cfg.save_compiled) {
		status = opts_compiled_save(&cfg, thread_count(&cfg));
		opts_free(&cfg);
		return status;
	}
	input_guard_install();

	const struct print_options print_opt = print_options_of(&cfg);
	const struct search_options search_opt = search_options_of(&cfg);
	const struct run_options run_opt = run_options_of(&cfg);
	scaleout_options_of(&cfg, &scaleout);
	struct run r = {
		.opt = &run_opt, .scaleout = &scaleout, .stats = search_opt.stats ? &stats : NULL,
	};
	struct pattern_keys *keys = NULL;
	struct matcher *m = NULL;
	if (r.stats && run_stats_init(r.stats, start, cfg.patterns.count) != 0)
		opts_oom();
	else
		m = build_matcher(&cfg, &keys, r.stats);
	if (!m || outbuf_init(&r.out, cfg.line_buffered) != 0 ||
	    printer_init(&r.pr, &r.out, &print_opt, m, keys) != 0 ||
	    output_sink(&r.pr, &r.json, &r.searcher.sink) != 0 || !setup_tally(&r, &search_opt, keys)) {
		if (m) /* the output buffer, the printer's, the JSON writer, the tallies */
			opts_oom();
		run_free(&r, m, keys);
		opts_free(&cfg);
		return 2;
	}
	r.searcher = (struct searcher){
		.opt = &search_opt, .matcher = m, .keys = keys, .tally = r.searcher.tally,
		.sink = r.searcher.sink, .seen = r.stats ? &r.stats->main_seen : NULL,
	};
	note_stdout(&r, stdout_open ? &out_st : NULL);
	search_inputs(&cfg, &r);
	if (r.tally && !outbuf_failed() && tally_run_finish(r.tally, &r.pr))
		r.matched = true;
	if (r.stats && !outbuf_failed())
		stats_report(&r.pr, r.stats);
	outbuf_flush(&r.out);
	r.trouble |= outbuf_failed();
	run_free(&r, m, keys);
	opts_free(&cfg);
	if (cfg.records) /* the job's own status: its stream is whole (range.h) */
		return r.trouble ? 2 : 0;
	if (r.trouble && !(cfg.quiet && r.matched))
		return 2;
	return r.matched ? 0 : 1;
}
