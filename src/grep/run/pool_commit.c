/* SPDX-License-Identifier: MIT */
/* pool_commit.c - the pool's committer (see pool.h, pool_internal.h): on
 * the main thread, between walk steps and at the end, the job at the head
 * of the queue has its segments' held output written in order (each then
 * marked as the head, whose worker writes to stdout itself), its results
 * folded into one search_result for run_report_result, what is left of a
 * split file after its segments searched here (a binary rest, the
 * window holding the end at open and what was appended since, or all of
 * it after the last segment committed once the file changed), and is
 * freed; once the run is over, queued jobs are discarded unreported.
 */
#include "pool_internal.h"
#include "input/dir_ref.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Writes segment sg's output in order into the run's output buffer: what
 * it holds, then (as the head, after a flush) what its worker writes
 * itself; returns when the segment is done.  `finished`: it was seen done
 * under the lock, and nothing of it changes any more: when it holds no
 * output there is nothing to lock for. */
static void commit_segment(struct pool *p, struct segment *sg, bool finished)
{
	struct outbuf *out = &p->run->out;
	if (finished && sg->out_len == 0)
		return;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (sg->out_len > 0) { /* copy held bytes outside the lock */
			char *held = sg->out;
			size_t len = sg->out_len;
			sg->out = NULL;
			sg->out_len = sg->out_cap = 0;
			p->buffered -= len;
			wake_turns(p);
			pthread_mutex_unlock(&p->mu);
			outbuf_append(out, held, len);
			free(held);
			pthread_mutex_lock(&p->mu);
			continue;
		}
		if (sg->state == SEG_DONE)
			break;
		if (!sg->head && !out->holding) { /* the worker writes to stdout from now on */
			if (out->len > 0) {
				pthread_mutex_unlock(&p->mu);
				outbuf_flush(out);
				pthread_mutex_lock(&p->mu);
				continue;
			}
			sg->head = true;
			wake_turns(p);
		}
		await_committer(p, sg);
	}
	pthread_mutex_unlock(&p->mu);
}

/* Drops the segments after `keep`: no more claims, running ones cancelled
 * and waited for, held output freed. */
static void drop_segments(struct pool *p, struct job *j, size_t keep)
{
	pthread_mutex_lock(&p->mu);
	atomic_store(&j->cancel, true);
	wake_turns(p); /* workers waiting in segment_write give up */
	if (j->next_seg < j->n_segs) {
		p->free_segs -= j->n_segs - j->next_seg;
		j->next_seg = j->n_segs;
	}
	for (size_t k = keep; k < j->n_segs; k++) {
		struct segment *sg = &j->segs[k];
		while (sg->state == SEG_RUNNING)
			await_committer(p, sg);
		p->buffered -= sg->out_len;
		free(sg->out);
		sg->out = NULL;
		sg->out_len = 0;
		tally_rows_free(&sg->res.tally);
		pattern_ids_free(&sg->res.seen);
	}
	wake_turns(p);
	pthread_mutex_unlock(&p->mu);
}

/* Adds segment result r to the file's result t: what run_report_result and
 * the group separators need (the stop decisions read each segment's own);
 * the patterns r's matches named go to the run's statistics at once, and
 * r's list is freed. */
static void fold_result(struct pool *p, struct search_result *t, struct search_result *r)
{
	if (p->run->stats)
		patterns_seen_update(&p->run->stats->seen, &r->seen, true);
	pattern_ids_free(&r->seen);
	t->selected = r->without_match ? 0 : t->selected + r->selected;
	t->binary_matched |= r->binary_matched;
	if (r->read_error && !t->read_error) {
		t->read_error = true;
		t->read_errno = r->read_errno;
		t->read_why = r->read_why;
	}
	t->truncated |= r->truncated;
	t->used |= r->used;
	search_stats_add(&t->stats, &r->stats);
}

/* The rest of a split file from file offset `lo` on, up to where the file
 * ends when it is read (it may have grown since it was split), searched on
 * this thread: after the last segment, or as binary from its first byte
 * after a segment turned the file binary. */
static void search_rest(struct pool *p, struct job *j, uint64_t lo, bool binary, const char *name,
			struct search_result *total)
{
	struct run *r = p->run;
	struct input_options io = r->opt->input;
	struct input in;
	struct search_result res;
	if (input_open_range(&in, &j->whole, lo, INPUT_TO_END, &io) != 0)
		return;
	r->pr.show_name = run_shows_name(r->opt, j->command_line);
	search_input(&r->searcher, &in, name, binary, &res);
	input_close(&in);
	outbuf_flush(&r->out);
	fold_result(p, total, &res);
	tally_run_take(r->tally, &res);
}

/* Forgets job j, opened and READY, once the run is over (-q found a line,
 * or stdout failed): its search is cancelled and waited for, nothing of it
 * is reported. */
static void discard_job(struct pool *p, struct job *j)
{
	if (j->walk_err || j->outcome != OPEN_SEARCH)
		return;
	drop_segments(p, j, 0);
	if (j->n_segs > 1) {
		input_close(&j->whole);
		free(j->segs);
	}
}

/* Whether split job j's file changed since it was split (size, times):
 * what later segments hold may then be bytes it no longer has. */
static bool file_changed(const struct job *j)
{
	struct stat st;
	const struct stat *was = &j->split_stat;
	return fstat(j->whole.fd, &st) != 0 || st.st_size != was->st_size ||
	       st.st_mtim.tv_sec != was->st_mtim.tv_sec || st.st_mtim.tv_nsec != was->st_mtim.tv_nsec ||
	       st.st_ctim.tv_sec != was->st_ctim.tv_sec || st.st_ctim.tv_nsec != was->st_ctim.tv_nsec;
}

/* Commits job j's segments in order into total; returns how many were
 * committed.  Stops after a segment that ended the search of the file
 * (*stopped), or before one when the file changed since the split: the
 * segments after the last one committed may have been read before the
 * change, the one committed last partly after it, and only reading on
 * from its end in order gives what one thread's read of the changing
 * file gives, a prefix of the file as it was and the rest as it is. */
static size_t commit_segments(struct pool *p, struct job *j, struct search_result *total, bool *stopped,
			      bool finished)
{
	struct run *r = p->run;
	*stopped = false;
	for (size_t k = 0; k < j->n_segs; k++) {
		if (k > 0 && file_changed(j))
			return k;
		commit_segment(p, &j->segs[k], finished);
		struct search_result *res = &j->segs[k].res;
		fold_result(p, total, res);
		tally_run_take(r->tally, res);
		if (res->done || res->read_error || res->truncated || res->binary ||
		    tally_run_settled(r->tally, total->selected > 0)) {
			*stopped = true;
			return k + 1;
		}
	}
	return j->n_segs;
}

/* Reports opened job j: its segments' output in order, then its result.
 * `finished`: every segment was seen done under the lock. */
static void report_job(struct pool *p, struct job *j, bool finished)
{
	struct run *r = p->run;
	const char *name = run_display_name(r->opt, j->path);
	if (j->walk_err) {
		run_walk_error(j->path, j->walk_err, r);
		return;
	}
	if (j->outcome != OPEN_SEARCH) {
		run_report_open(r, name, j->command_line, j->outcome, j->err);
		return;
	}
	struct search_result total = { .stop_offset = UINT64_MAX };
	bool stopped;
	tally_run_begin(r->tally, &r->pr);
	size_t k = commit_segments(p, j, &total, &stopped, finished);
	if (k < j->n_segs)
		drop_segments(p, j, k);
	if (!stopped && j->n_segs > 1) {
		search_rest(p, j, j->segs[k - 1].hi, false, name, &total);
	} else if (j->n_segs > 1) {
		const struct search_result *res = &j->segs[k - 1].res;
		if (res->binary && !res->done && !res->without_match && !res->read_error && !res->truncated)
			search_rest(p, j, j->segs[k - 1].hi, true, name, &total);
	}
	if (j->n_segs > 1) {
		input_close(&j->whole);
		free(j->segs);
	}
	r->pr.show_name = run_shows_name(r->opt, j->command_line);
	total.used = total.used && !r->searcher.used; /* as on one thread: this input set it */
	r->searcher.used |= total.used;
	run_report_result(r, name, &total); /* may forget the input's output and its use */
	if (p->used == r->searcher.used) /* the main thread is its only writer */
		return;
	pthread_mutex_lock(&p->mu);
	p->used = r->searcher.used;
	pthread_mutex_unlock(&p->mu);
}

/* Commits job j, READY, at the head of the queue (reports it, or discards
 * it once the run is over), without the lock. */
static void commit_job(struct pool *p, struct job *j, bool finished)
{
	if (p->run->stop)
		discard_job(p, j);
	else
		report_job(p, j, finished);
	/* here, not in the worker that opened it: the count is then the main
	 * thread's alone, no cache line shared per file */
	dir_ref_drop(j->dir);
	if (j->path != j->path_inline)
		free(j->path);
}

/* Under the lock: frees the committed head job's slot. */
static void retire_head(struct pool *p)
{
	memset(job_at(p, p->head), 0, sizeof(struct job));
	p->head++;
	/* A walk error is committed without being claimed: no worker may
	 * claim its slot afterwards, emptied or reused by a later add. */
	if (p->claimed < p->head)
		p->claimed = p->head;
	wake_turns(p); /* output_before waits for the head */
}

void pool_commit_head(struct pool *p)
{
	struct job *j = job_at(p, p->head);
	pthread_mutex_lock(&p->mu);
	if (p->run->stop && j->state == JOB_QUEUED) {
		/* never open it: unclaimed, so claims stand at it (they go in
		 * order), or reserved, so its worker will skip it */
		if (p->claimed == p->head)
			p->claimed++;
		else
			p->reserved--;
		j->state = JOB_READY;
		j->outcome = OPEN_SKIP;
	}
	while (j->state != JOB_READY)
		await_committer(p, j);
	pthread_mutex_unlock(&p->mu);
	commit_job(p, j, false);
	pthread_mutex_lock(&p->mu);
	retire_head(p);
	pthread_mutex_unlock(&p->mu);
}

/* Under the lock: whether job k is opened and every segment of it done. */
static bool job_finished(struct pool *p, size_t k)
{
	struct job *j = job_at(p, k);
	bool done = k < p->tail && j->state == JOB_READY;
	for (size_t i = 0; done && i < j->n_segs; i++)
		done = j->segs[i].state == SEG_DONE;
	return done;
}

bool pool_head_finished(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	bool done = job_finished(p, p->head);
	pthread_mutex_unlock(&p->mu);
	return done;
}

void pool_commit_locked(struct pool *p)
{
	for (;;) {
		size_t n = 0;
		while (job_finished(p, p->head + n))
			n++;
		if (n == 0)
			break;
		pthread_mutex_unlock(&p->mu);
		for (size_t k = 0; k < n; k++)
			commit_job(p, job_at(p, p->head + k), true);
		pthread_mutex_lock(&p->mu);
		while (n-- > 0)
			retire_head(p);
	}
	pthread_mutex_unlock(&p->mu);
}

/* The queue is full: sleeps until the job half the ring ahead is
 * finished, then commits every finished job at the head (one wake-up for
 * many small files, not one each), or waits for the head itself.  A worker
 * waiting for its turn cuts the sleep short: its job can finish only after
 * the jobs before it are committed. */
void pool_make_room(struct pool *p)
{
	size_t ahead = p->head + POOL_RING / 2;
	pthread_mutex_lock(&p->mu);
	while (!job_finished(p, ahead) && p->turn_waiters == 0)
		await_committer(p, job_at(p, ahead));
	pthread_mutex_unlock(&p->mu);
	if (!pool_head_finished(p))
		pool_commit_head(p);
	pthread_mutex_lock(&p->mu);
	pool_commit_locked(p);
}
