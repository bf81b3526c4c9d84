/* SPDX-License-Identifier: MIT */
/* pool.c - searching a run's inputs on worker threads, output in order
 * (see pool.h).
 *
 * The queue is a ring of jobs, one per input (or walk error), in the order
 * the walk met them.  A worker claims the oldest unopened job, with the
 * files after it from the same directory (pool_claim.c), opens it
 * (run_open) and, for a large regular file, cuts it at line ends into
 * segments; every segment, of any job, is then free for any worker, the
 * oldest first.  The main thread walks, queues and commits (pool_commit.c):
 * for the job at the head of the queue it writes each segment's held
 * output, marks the segment as the head (whose worker then writes to
 * stdout itself), waits for it, and folds the segment results into one
 * search_result for run_report_result.  This file has the workers, the
 * queue and the functions of pool.h; pool_internal.h what both share.
 *
 * A segment's search knows nothing of the segments before it, which is
 * exact while nothing carries over a line end (pool_can_split) and no NUL
 * byte makes the file binary.  When one does (a segment ends binary), the
 * later segments are dropped and the rest of the file is searched on the
 * main thread as binary from its first byte; a segment that stopped early
 * (-l, -q, a binary match, a read error) drops the later ones too, and so
 * does a change of the file seen before a segment is committed (the rest
 * is then read in order, pool_commit.c).  The
 * last segment ends where the window that holds the file's end at open
 * starts; the rest (that window, and what was appended since) is searched
 * on the main thread after it, read to wherever the file ends then, as one
 * thread reads it.
 */
#include "grow.h"
#include "output/json.h"
#include "pool.h"
#include "pool_internal.h"
#include "input/dir_ref.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool pool_usable(const struct run_options *opt, unsigned threads)
{
	return threads > 1 && opt->engine == ENGINE_AC && !opt->line_buffered;
}

bool pool_can_split(const struct run_options *opt)
{
	return !opt->line_number && !opt->json && opt->max_count < 0 && opt->before < 0 &&
	       opt->after < 0 && opt->input.io != INPUT_IO_MMAP;
}

/* Under the lock: job j, opened, may be committed (its segments made the
 * head in turn); wakes the committer when it waits for that. */
static void publish_job(struct pool *p, struct job *j)
{
	if (j->state == JOB_READY)
		return;
	j->state = JOB_READY;
	wake_committer(p, j);
}

/* Under the lock: the worker of job j waits for its turn (a commit). */
static void await_turn(struct pool *p, struct job *j)
{
	publish_job(p, j); /* its turn needs it committed: see open_job */
	/* A turn comes only through commits: a committer sleeping on something
	 * else (pool_make_room's job far ahead) must commit the head now. */
	if (p->awaited)
		pthread_cond_signal(&p->commit_cv);
	p->turn_waiters++;
	pthread_cond_wait(&p->turn_cv, &p->mu);
	p->turn_waiters--;
}

/* ---- worker side -------------------------------------------------------- */

/* Where a worker's output buffer flushes: held output, or stdout once its
 * segment is the head.  Past the budget, waits for its turn. */
static void segment_write(void *ctx, const char *data, size_t len)
{
	struct worker *w = ctx;
	struct pool *p = w->pool;
	struct segment *sg = w->seg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (sg->head) {
			pthread_mutex_unlock(&p->mu);
			outbuf_write(data, len);
			return;
		}
		if (atomic_load(&w->job->cancel)) { /* dropped: nobody wants it */
			pthread_mutex_unlock(&p->mu);
			return;
		}
		if (p->buffered + len <= p->budget || sg->out_len == 0)
			break;
		await_turn(p, w->job);
	}
	if (sg->out_cap - sg->out_len < len) {
		char *grown = grow_array(sg->out, &sg->out_cap, sg->out_len + len, 1, 64 << 10);
		if (!grown && tally_holds_output(p->run->opt)) { /* no turn comes: see commit_segment */
			pthread_mutex_unlock(&p->mu);
			outbuf_fail("memory exhausted", 0);
			return;
		}
		if (!grown) { /* no room to hold it: wait for the turn instead */
			while (!sg->head && !atomic_load(&w->job->cancel))
				await_turn(p, w->job);
			pthread_mutex_unlock(&p->mu);
			if (sg->head)
				outbuf_write(data, len);
			return;
		}
		sg->out = grown;
	}
	memcpy(sg->out + sg->out_len, data, len);
	sg->out_len += len;
	p->buffered += len;
	pthread_mutex_unlock(&p->mu);
}

/* searcher.output_before of a worker: known at once once anything was
 * output, else only when every earlier job is committed. */
static bool worker_output_before(void *ctx)
{
	struct worker *w = ctx;
	struct pool *p = w->pool;
	pthread_mutex_lock(&p->mu);
	while (!p->used && job_at(p, p->head) != w->job)
		await_turn(p, w->job);
	bool used = p->used;
	pthread_mutex_unlock(&p->mu);
	return used;
}

/* Where the window of a whole-file search that spans offset `boundary`
 * (a multiple of the read size) ends: just past the last eol in
 * [floor, boundary), or 0 when there is none there.  Only the last 16 KiB
 * before the boundary are read: a longer line there leaves the boundary
 * uncut (one segment fewer, the same output), where reading back a whole
 * read size for each boundary of a file with no line ends (100 MB of one
 * line: 66 preads of 16 KiB) cost --count of it 3% over one thread. */
static uint64_t window_start_before(int fd, uint64_t floor, uint64_t boundary, char eol)
{
	char buf[16384];
	size_t want = boundary - floor < sizeof buf ? (size_t)(boundary - floor) : sizeof buf;
	if (pread(fd, buf, want, (off_t)(boundary - want)) != (ssize_t)want)
		return 0;
	const char *e = memrchr(buf, eol, want);
	return e ? boundary - want + (uint64_t)(e - buf) + 1 : 0;
}

/* Where a segment that starts at `lo` may end so that the next one starts
 * with the window of a whole-file search that spans offset `boundary` (a
 * multiple of the read size `chunk`); 0 when there is no such place. */
static uint64_t cut_at(const struct job *j, uint64_t lo, uint64_t boundary, uint64_t chunk, char eol)
{
	if (boundary < chunk || boundary <= lo)
		return 0;
	uint64_t floor = boundary - chunk > lo ? boundary - chunk : lo;
	uint64_t cut = window_start_before(j->whole.fd, floor, boundary, eol);
	return cut > lo ? cut : 0;
}

/* Cuts the job's file into segments of about segment_size bytes, each
 * starting where a window of a whole-file search starts (input.h,
 * input_open_range), so that a NUL byte makes the same lines binary; leaves
 * it whole when it is small or no cut is found.  The last segment ends
 * where the window that holds the end at open starts: the rest, to
 * wherever the file ends when it is reached, is searched in order after
 * it (search_rest), so that its windows are one thread's also when bytes
 * were appended since (a last line unfinished at open joins them, a NUL
 * among them silences the same lines). */
static void split_job(struct pool *p, struct job *j)
{
	j->segs = &j->one;
	j->n_segs = 1;
	uint64_t size = j->whole.size_at_open, n = size / p->segment_size;
	if (!p->split || !j->whole.is_regular || !j->whole.owns_fd || n < 2)
		return;
	/* what report_job compares with; changed since open: read in order */
	if (fstat(j->whole.fd, &j->split_stat) != 0 || (uint64_t)j->split_stat.st_size != size)
		return;
	struct segment *segs = calloc((size_t)n, sizeof *segs);
	if (!segs)
		return;
	struct input_options io = p->run->opt->input;
	uint64_t chunk = input_read_size(&io);
	size_t k = 0;
	for (uint64_t i = 1; i < n; i++) {
		uint64_t cut = cut_at(j, segs[k].lo, size / n * i / chunk * chunk, chunk, io.eol);
		if (cut > 0 && cut < size) {
			segs[k].hi = cut;
			segs[++k].lo = cut;
		}
	}
	segs[k].hi = cut_at(j, segs[k].lo, size / chunk * chunk, chunk, io.eol);
	if (segs[k].hi == 0 && k > 0)
		k--;
	if (k == 0) {
		free(segs);
		return;
	}
	j->segs = segs;
	j->n_segs = k + 1;
}

/* Searches segment sg of job j on this worker; marks it done.  Returns
 * with the lock held, for the worker's next claim (one lock a file). */
static void run_segment(struct worker *w, struct job *j, struct segment *sg)
{
	struct pool *p = w->pool;
	const struct run_options *opt = p->run->opt;
	const char *name = run_display_name(opt, j->path);
	w->job = j;
	w->seg = sg;
	w->pr.show_name = run_shows_name(opt, j->command_line);
	w->searcher.used = false;
	w->searcher.cancel = &j->cancel;
	/* held whole until the committer's verdict on the input */
	if (tally_holds_output(opt))
		outbuf_hold(&w->out);
	if (j->n_segs == 1) {
		search_input(&w->searcher, &j->whole, name, false, &sg->res);
		run_leave_input(opt, &j->whole, &sg->res);
		input_close(&j->whole); /* here: its read() buffer stays this thread's */
	} else {
		struct input_options io = opt->input;
		struct input in;
		if (input_open_range(&in, &j->whole, sg->lo, sg->hi, &io) == 0) {
			search_input(&w->searcher, &in, name, false, &sg->res);
			input_close(&in);
		} else {
			memset(&sg->res, 0, sizeof sg->res);
			sg->res.read_error = true;
			sg->res.read_errno = errno;
		}
	}
	outbuf_settle(&w->out, true);
	outbuf_flush(&w->out);
	pthread_mutex_lock(&p->mu);
	publish_job(p, j);
	sg->state = SEG_DONE;
	wake_committer(p, sg);
	wake_committer(p, j);
}

static void *worker_main(void *arg);

/* Frees worker w and what start_worker set up for it. */
static void worker_free(struct worker *w)
{
	patterns_seen_free(&w->seen);
	json_writer_free(w->json);
	printer_free(&w->pr);
	outbuf_free(&w->out);
	tally_free(w->searcher.tally);
	matcher_memo_free(w->searcher.memo);
	free(w);
}

/* Under the lock: starts one more worker.  False when it could not. */
static bool start_worker(struct pool *p)
{
	if (p->started >= p->n_threads)
		return false;
	const struct run_options *opt = p->run->opt;
	struct worker *w = calloc(1, sizeof *w);
	if (!w)
		return false;
	w->pool = p;
	w->searcher = p->searcher;
	w->searcher.tally = NULL; /* its own, made here */
	w->searcher.memo = NULL;  /* its own, made at its first count */
	if (outbuf_init(&w->out, opt->line_buffered) != 0 ||
	    printer_init(&w->pr, &w->out, &p->run->pr.opt, p->searcher.matcher, p->searcher.keys) != 0 ||
	    (p->searcher.tally && !(w->searcher.tally = tally_new(p->searcher.opt, p->searcher.keys)))) {
		worker_free(w);
		return false;
	}
	w->out.flush_to = segment_write;
	w->out.flush_ctx = w;
	w->searcher.output_before = worker_output_before;
	w->searcher.output_before_ctx = w;
	if (p->run->stats) /* each thread its own: see search.h */
		w->searcher.seen = patterns_seen_init(&w->seen, p->run->stats->seen.n) == 0 ? &w->seen : NULL;
	if (output_sink(&w->pr, &w->json, &w->searcher.sink) != 0 || (p->run->stats && !w->searcher.seen) ||
	    pthread_create(&p->threads[p->started], NULL, worker_main, w) != 0) {
		worker_free(w);
		return false;
	}
	p->started++;
	return true;
}

/* Under the lock: `n` new jobs or segments can be claimed.  Wakes idle
 * workers (one for one job: the others would wake to find nothing), and
 * starts new ones (up to --threads) while the unclaimed work outnumbers
 * the workers holding none: two small files on a 64-CPU machine start two
 * threads at most, not 64. */
static void offer_work(struct pool *p, size_t n)
{
	if (p->idle_workers && n == 1)
		pthread_cond_signal(&p->work_cv);
	else if (p->idle_workers && n > 1)
		pthread_cond_broadcast(&p->work_cv);
	size_t unclaimed = p->tail - p->claimed + p->free_segs + p->reserved;
	while (p->started - p->busy < unclaimed && start_worker(p))
		;
}

/* Opens job j (claimed by this worker), splits it and searches its first
 * segment.  Returns with the lock held.  A file the walk found plain and
 * whose first read() at open brought all of it is searched at once, the
 * job made READY with its end (one lock a file fewer): its search ends
 * soon, and before the worker waits for a turn, which needs the job
 * committed, await_turn makes it READY. */
static void open_job(struct worker *w, struct job *j)
{
	struct pool *p = w->pool;
	enum open_outcome outcome = run_open(p->run, j->path, j->dir, j->command_line, j->plain, &j->whole,
					     &j->err);
	if (outcome == OPEN_SEARCH)
		split_job(p, j);
	j->outcome = outcome; /* read by others once READY, set under the lock */
	if (outcome == OPEN_SEARCH) {
		j->segs[0].state = SEG_RUNNING;
		j->next_seg = 1;
	}
	if (outcome == OPEN_SEARCH && j->n_segs == 1 && j->plain && j->whole.is_regular &&
	    j->whole.size_at_open < input_read_size(&p->run->opt->input)) {
		run_segment(w, j, &j->segs[0]);
		return;
	}
	pthread_mutex_lock(&p->mu);
	publish_job(p, j);
	if (outcome != OPEN_SEARCH)
		return;
	p->free_segs += j->n_segs - 1;
	offer_work(p, j->n_segs - 1);
	pthread_mutex_unlock(&p->mu);
	run_segment(w, j, &j->segs[0]);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct job *j;
		struct segment *sg = NULL;
		bool open;
		if (!pool_claim(p, w, &j, &sg, &open)) {
			if (p->closing)
				break;
			p->idle_workers++;
			pthread_cond_wait(&p->work_cv, &p->mu);
			p->idle_workers--;
			continue;
		}
		p->busy++;
		pthread_mutex_unlock(&p->mu);
		if (open)
			open_job(w, j);
		else
			run_segment(w, j, sg);
		p->busy--; /* both return with the lock held */
	}
	pthread_mutex_unlock(&p->mu);
	input_thread_done();
	worker_free(w);
	return NULL;
}

struct pool *pool_new(struct run *r, unsigned threads, uint64_t segment_size, bool one_input)
{
	struct pool *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->run = r;
	p->searcher = r->searcher;
	p->n_threads = threads < MAX_THREADS ? threads : MAX_THREADS;
	p->segment_size = segment_size ? segment_size : POOL_SEGMENT_SIZE;
	p->split = pool_can_split(r->opt);
	p->one_input = one_input;
	p->budget = p->segment_size < SIZE_MAX / POOL_BUFFER_SEGMENTS
			    ? (size_t)p->segment_size * POOL_BUFFER_SEGMENTS : SIZE_MAX;
	p->used = r->searcher.used;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work_cv, NULL);
	pthread_cond_init(&p->commit_cv, NULL);
	pthread_cond_init(&p->turn_cv, NULL);
	return p;
}

/* The run's only input (pool_new's one_input), opened and split on this
 * thread before any worker starts.  A file that does not split is
 * searched here as --threads=1 searches it: no thread is started to be
 * handed it, which a busy machine can hold off.  One that splits is
 * queued opened, every segment free for the workers; when none can
 * start, it is searched here whole. */
static int add_only_input(struct pool *p, const char *path, struct dir_ref *dir, bool command_line,
			  bool plain)
{
	struct job *j = job_at(p, p->tail);
	enum open_outcome outcome = run_open(p->run, path, dir, command_line, plain, &j->whole, &j->err);
	if (outcome == OPEN_SEARCH)
		split_job(p, j);
	bool split = outcome == OPEN_SEARCH && j->n_segs > 1;
	char *copy = split ? strdup(path) : NULL;
	if (copy) {
		pthread_mutex_lock(&p->mu);
		j->path = copy;
		j->command_line = command_line;
		j->plain = plain;
		j->outcome = OPEN_SEARCH;
		j->state = JOB_READY;
		p->claimed = ++p->tail;
		p->free_segs += j->n_segs;
		offer_work(p, j->n_segs);
		p->running = p->started > 0;
		if (p->running) {
			pool_commit_locked(p); /* unlocks */
			return p->run->stop;
		}
		p->claimed = --p->tail;
		p->free_segs -= j->n_segs;
		pthread_mutex_unlock(&p->mu);
		free(copy);
	}
	if (split)
		free(j->segs);
	run_search_opened(p->run, path, command_line, outcome, &j->whole, j->err);
	memset(j, 0, sizeof *j);
	return p->run->stop;
}

/* Queues a job (holding dir); false when the path could not be copied. */
static bool add_job(struct pool *p, const char *path, struct dir_ref *dir, bool command_line,
		    bool plain, int walk_err)
{
	while (p->tail - p->head == POOL_RING)
		pool_make_room(p);
	size_t size = strlen(path) + 1;
	struct job *j = job_at(p, p->tail); /* no other thread reads past the tail */
	char *copy = size <= sizeof j->path_inline ? j->path_inline : malloc(size);
	if (!copy)
		return false;
	memcpy(copy, path, size);
	pthread_mutex_lock(&p->mu);
	j->path = copy;
	j->dir = dir;
	if (dir)
		dir_ref_hold(dir);
	j->command_line = command_line;
	j->plain = plain;
	j->walk_err = walk_err;
	j->state = walk_err ? JOB_READY : JOB_QUEUED;
	p->tail++;
	if (!walk_err)
		offer_work(p, 1);
	pool_commit_locked(p); /* unlocks */
	return true;
}

/* Whether a worker runs, starting the first one if none does.  `started`
 * is written under the lock by any thread that starts a worker; once one
 * runs the main thread remembers it (`running`, its own) and locks no
 * more to ask. */
static bool workers_running(struct pool *p, bool start)
{
	if (p->running)
		return true;
	pthread_mutex_lock(&p->mu);
	bool running = p->started > 0 || (start && start_worker(p));
	pthread_mutex_unlock(&p->mu);
	p->running = running;
	return running;
}

int pool_add_path(const char *path, struct dir_ref *dir, bool command_line, bool plain, void *ctx)
{
	struct pool *p = ctx;
	if (p->one_input) {
		p->one_input = false;
		return add_only_input(p, path, dir, command_line, plain);
	}
	if (!workers_running(p, true)) /* no thread could start: search it here */
		return run_search_path(path, dir, command_line, plain, p->run);
	if (strcmp(path, "-") == 0) { /* one reader of stdin at a time, in order */
		while (p->head < p->last_stdin)
			pool_commit_head(p);
		p->last_stdin = p->tail + 1;
	}
	if (!add_job(p, path, dir, command_line, plain, 0))
		return run_search_path(path, dir, command_line, plain, p->run);
	return p->run->stop;
}

void pool_walk_error(const char *path, int err, void *ctx)
{
	struct pool *p = ctx;
	if (!workers_running(p, false) || !add_job(p, path, NULL, false, false, err))
		run_walk_error(path, err, p->run);
}

void pool_finish(struct pool *p)
{
	while (p->head < p->tail)
		pool_commit_head(p);
	pthread_mutex_lock(&p->mu);
	p->closing = true;
	pthread_cond_broadcast(&p->work_cv);
	unsigned started = p->started; /* nothing starts a worker any more */
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < started; i++)
		pthread_join(p->threads[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work_cv);
	pthread_cond_destroy(&p->commit_cv);
	pthread_cond_destroy(&p->turn_cv);
	free(p);
}
