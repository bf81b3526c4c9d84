/* SPDX-License-Identifier: MIT */
/* run.c - one input of a run, from its operand to its report (see run.h).
 *
 * GNU grep 3.8's order is kept: an open error is reported before the
 * --include/--exclude test of an operand; a read error (a directory operand
 * read as a file: "Is a directory") comes before the -c count or -l/-L
 * name, as grep reports it while reading; stdout is flushed before anything
 * goes to stderr, and once a write of stdout has failed nothing more is
 * reported (grep exits at its write error).
 */
#include "run.h"
#include "input/dir_ref.h"
#include "tally_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Flushes stdout before a message on stderr.  False when stdout has
 * failed: the run is over and the message is not printed. */
static bool flush_for_message(struct run *r)
{
	outbuf_flush(&r->out);
	if (!outbuf_failed())
		return true;
	r->trouble = true;
	r->stop = true;
	return false;
}

void run_complain(struct run *r, const char *name, const char *what)
{
	if (r->opt->no_messages || !flush_for_message(r))
		return;
	fprintf(stderr, "acgrep: %s: %s\n", name, what);
}

const char *run_display_name(const struct run_options *opt, const char *path)
{
	if (strcmp(path, "-") != 0)
		return path;
	return opt->label ? opt->label : "(standard input)";
}

bool run_shows_name(const struct run_options *opt, bool command_line)
{
	return opt->with_filename >= 0 ? opt->with_filename
				       : (opt->several_inputs || !command_line);
}

enum open_outcome run_open(const struct run *r, const char *path, struct dir_ref *dir,
			   bool command_line, bool plain, struct input *in, int *err)
{
	const struct run_options *opt = r->opt;
	bool is_stdin = strcmp(path, "-") == 0;
	struct input_options io = opt->input;
	io.any_length = walk_any_length(&r->walk, command_line);
	io.plain_regular = plain;
	struct stat st;
	*err = 0;
	if (opt->devices == DEVS_SKIP && command_line && !is_stdin && stat(path, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return OPEN_SKIP;
	int opened = dir ? input_open_at(in, dir_ref_fd(dir), dir_ref_entry_name(path), &io)
			 : input_open(in, is_stdin ? NULL : path, &io);
	if (opened != 0) {
		*err = errno;
		return errno == EISDIR && opt->directories == DIRS_SKIP ? OPEN_SKIP : OPEN_FAILED;
	}
	if (command_line && !is_stdin && walk_excluded_file(path, &r->walk, true)) {
		input_close(in);
		return OPEN_SKIP;
	}
	/* as grep, not with -m 1 either: one selected line cannot feed itself */
	if (opt->prints_lines && !opt->count_per_pattern &&
	    (opt->max_count < 0 || opt->max_count > 1) && r->out_regular &&
	    input_same_file(in, STDOUT_FILENO)) {
		input_close(in);
		return OPEN_IS_OUTPUT;
	}
	return OPEN_SEARCH;
}

void run_report_open(struct run *r, const char *name, bool command_line, enum open_outcome outcome,
		     int err)
{
	if (outcome == OPEN_FAILED && err == EISDIR) {
		/* grep opens a directory and fails to read it: a read error,
		 * then its -c count of 0 or its -L name */
		struct search_result res = {
			.read_error = true, .read_errno = err, .stop_offset = UINT64_MAX,
		};
		r->pr.show_name = run_shows_name(r->opt, command_line);
		run_report_result(r, name, &res);
		return;
	}
	if (outcome == OPEN_FAILED)
		run_complain(r, name, strerror(err));
	else if (outcome == OPEN_IS_OUTPUT)
		run_complain(r, name, "input file is also the output");
	r->trouble |= outcome == OPEN_FAILED || outcome == OPEN_IS_OUTPUT;
}

void run_report_result(struct run *r, const char *name, struct search_result *res)
{
	const struct run_options *opt = r->opt;
	struct tally_verdict v = tally_run_verdict(r->tally, &r->pr, res);
	bool selected = res->selected > 0 && v.qualifies;
	if (!v.qualifies && res->used) /* its output is forgotten: groups part as before it */
		r->searcher.used = false;
	if (opt->count_per_pattern ? v.matched : selected)
		r->matched = true;
	if (r->stats) /* files with matches: those that qualify (--all-patterns) */
		run_stats_add(r->stats, &res->stats, &res->seen, selected);
	if (res->read_error || v.failed) {
		run_complain(r, name, v.failed ? "memory exhausted"
				  : res->read_why ? res->read_why : strerror(res->read_errno));
		r->trouble = true;
	}
	if (res->truncated) {
		run_complain(r, name, "file shrank while being searched");
		r->trouble = true;
	}
	if (opt->list == LIST_MATCHING && selected)
		print_file_name(&r->pr, name);
	else if (opt->list == LIST_NONMATCHING && !selected)
		print_file_name(&r->pr, name);
	else if (opt->list == LIST_NONE && (opt->count || opt->count_matches) && v.qualifies)
		print_count(&r->pr, name, res->selected);
	tally_run_report(r->tally, &r->pr, name);
	if (res->binary_matched && v.qualifies && flush_for_message(r))
		fprintf(stderr, "acgrep: %s: binary file matches\n", name);
	if (outbuf_failed())
		r->trouble = true;
	r->stop = (opt->quiet && r->matched) || outbuf_failed();
}

void run_walk_error(const char *path, int err, void *ctx)
{
	struct run *r = ctx;
	if (err == ELOOP) {
		run_complain(r, path, "warning: recursive directory loop");
		return;
	}
	run_complain(r, path, strerror(err));
	r->trouble = true;
}

void run_leave_input(const struct run_options *opt, const struct input *in, struct search_result *res)
{
	if (opt->reports_files)
		return;
	bool to_end = (res->done || res->without_match) && res->stop_offset == UINT64_MAX && !res->read_error;
	if (input_leave(in, res->stop_offset, to_end) != 0) {
		res->read_error = true;
		res->read_errno = errno;
		res->read_why = NULL;
	}
}

void run_search_opened(struct run *r, const char *path, bool command_line,
		       enum open_outcome outcome, struct input *in, int err)
{
	const char *name = run_display_name(r->opt, path);
	if (outcome != OPEN_SEARCH) {
		run_report_open(r, name, command_line, outcome, err);
		return;
	}
	r->pr.show_name = run_shows_name(r->opt, command_line);
	struct search_result res;
	tally_run_begin(r->tally, &r->pr);
	search_input(&r->searcher, in, name, false, &res);
	run_leave_input(r->opt, in, &res);
	input_close(in);
	run_report_result(r, name, &res);
	pattern_ids_free(&res.seen);
}

int run_search_path(const char *path, struct dir_ref *dir, bool command_line, bool plain, void *ctx)
{
	struct run *r = ctx;
	struct input in;
	int err;
	enum open_outcome outcome = run_open(r, path, dir, command_line, plain, &in, &err);
	run_search_opened(r, path, command_line, outcome, &in, err);
	return r->stop;
}
