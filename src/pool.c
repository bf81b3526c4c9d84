/* pool.c - searching a run's inputs on worker threads, output in order
 * (see pool.h).
 *
 * The queue is a ring of jobs, one per input (or walk error), in the order
 * the walk met them.  A worker claims the oldest unopened job, opens it
 * (run_open) and, for a large regular file, cuts it at line ends into
 * segments; every segment, of any job, is then free for any worker, the
 * oldest first.  The main thread walks, queues and commits: for the job at
 * the head of the queue it writes each segment's held output, marks the
 * segment as the head (whose worker then writes to stdout itself), waits
 * for it, and folds the segment results into one search_result for
 * run_report_result.
 *
 * A segment's search knows nothing of the segments before it, which is
 * exact while nothing carries over a line end (pool_can_split) and no NUL
 * byte makes the file binary.  When one does (a segment ends binary), the
 * later segments are dropped and the rest of the file is searched on the
 * main thread as binary from its first byte; a segment that stopped early
 * (-l, -q, a binary match, a read error) drops the later ones too.  The
 * last segment ends where the window that holds the file's end at open
 * starts; the rest (that window, and what was appended since) is searched
 * on the main thread after it, read to wherever the file ends then, as one
 * thread reads it.
 */
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POOL_RING 256

enum seg_state { SEG_FREE, SEG_RUNNING, SEG_DONE };

struct segment {
	uint64_t lo, hi;        /* file offsets; a job of one segment uses the
				   whole input instead */
	enum seg_state state;
	bool head;              /* being committed: its worker writes to stdout */
	char *out;              /* output held until it is the head */
	size_t out_len, out_cap;
	struct search_result res;
};

enum job_state { JOB_QUEUED, JOB_OPENING, JOB_READY };

struct job {
	char *path;
	bool command_line;
	int walk_err;           /* non-zero: a walk error to report, no input */
	enum job_state state;
	enum open_outcome outcome;
	int err;
	struct input whole;     /* open while the job's segments run */
	struct segment *segs;   /* n_segs of them; &one when not split */
	struct segment one;
	size_t n_segs, next_seg;
	atomic_bool cancel;     /* later segments are not wanted */
};

struct pool {
	struct run *run;
	/* What a new worker's searcher starts from: the run's at pool_new.  A
	 * worker may start one while the main thread writes the run's own
	 * (searcher.used, in report_job and search_rest_binary). */
	struct searcher searcher;
	pthread_mutex_t mu;
	pthread_cond_t work_cv;   /* idle workers: a job or segment to claim, or closing */
	pthread_cond_t commit_cv; /* the committer: `awaited` is ready or done */
	pthread_cond_t turn_cv;   /* workers waiting for their turn: a head, room
				     in the budget, a cancel, a commit */
	const void *awaited;      /* the job or segment the committer sleeps on */
	unsigned idle_workers, turn_waiters;
	unsigned busy;            /* workers holding a claimed job or segment */
	size_t free_segs;         /* segments of opened jobs not yet claimed */
	struct job ring[POOL_RING];
	size_t head, claimed, tail; /* counters: commit, open, add (mod POOL_RING) */
	pthread_t threads[MAX_THREADS];
	unsigned n_threads, started;
	bool closing;
	bool split;
	uint64_t segment_size;
	size_t last_stdin;      /* 1 + the counter of the last "-" job queued, or 0 */
	size_t buffered;        /* bytes held in segments' out buffers */
	size_t budget;          /* most bytes held before workers wait their turn */
	bool used;              /* searcher.used after the committed jobs */
};

struct worker {
	struct pool *pool;
	struct printer pr;
	struct searcher searcher;
	struct job *job;
	struct segment *seg;
};

bool pool_usable(const struct config *cfg, unsigned threads)
{
	return threads > 1 && cfg->engine == ENGINE_AC && !cfg->line_buffered;
}

bool pool_can_split(const struct config *cfg)
{
	return !cfg->line_number && cfg->max_count < 0 && cfg->before < 0 && cfg->after < 0 &&
	       cfg->io != IO_MMAP;
}

static struct job *job_at(struct pool *p, size_t k)
{
	return &p->ring[k % POOL_RING];
}

/* Waking only the thread that waits for this change: one wake-up per file
 * is a system call and a context switch, a third of a small file's cost.
 * All four are called with the lock held. */
static void wake_committer(struct pool *p, const void *what)
{
	if (p->awaited == what)
		pthread_cond_signal(&p->commit_cv);
}

static void await_committer(struct pool *p, const void *what)
{
	p->awaited = what;
	pthread_cond_wait(&p->commit_cv, &p->mu);
	p->awaited = NULL;
}

static void wake_turns(struct pool *p)
{
	if (p->turn_waiters)
		pthread_cond_broadcast(&p->turn_cv);
}

static void await_turn(struct pool *p)
{
	/* A turn comes only through commits: a committer sleeping on something
	 * else (make_room's job far ahead) must commit the head now. */
	if (p->awaited)
		pthread_cond_signal(&p->commit_cv);
	p->turn_waiters++;
	pthread_cond_wait(&p->turn_cv, &p->mu);
	p->turn_waiters--;
}

/* ---- worker side -------------------------------------------------------- */

/* The printer sink of a worker: held output, or stdout once its segment is
 * the head.  Past the budget, waits for its turn. */
static void segment_sink(void *ctx, const char *data, size_t len)
{
	struct worker *w = ctx;
	struct pool *p = w->pool;
	struct segment *sg = w->seg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (sg->head) {
			pthread_mutex_unlock(&p->mu);
			printer_write(data, len);
			return;
		}
		if (atomic_load(&w->job->cancel)) { /* dropped: nobody wants it */
			pthread_mutex_unlock(&p->mu);
			return;
		}
		if (p->buffered + len <= p->budget || sg->out_len == 0)
			break;
		await_turn(p);
	}
	if (sg->out_cap - sg->out_len < len) {
		size_t cap = sg->out_cap ? sg->out_cap : 64 << 10;
		while (cap - sg->out_len < len)
			cap *= 2;
		char *grown = realloc(sg->out, cap);
		if (!grown) { /* no room to hold it: wait for the turn instead */
			while (!sg->head && !atomic_load(&w->job->cancel))
				await_turn(p);
			pthread_mutex_unlock(&p->mu);
			if (sg->head)
				printer_write(data, len);
			return;
		}
		sg->out = grown;
		sg->out_cap = cap;
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
		await_turn(p);
	bool used = p->used;
	pthread_mutex_unlock(&p->mu);
	return used;
}

/* Where the window of a whole-file search that spans offset `boundary`
 * (a multiple of the read size) ends: just past the last eol in
 * [floor, boundary), or 0 when there is none there. */
static uint64_t window_start_before(int fd, uint64_t floor, uint64_t boundary, char eol)
{
	char buf[16384];
	for (uint64_t end = boundary; end > floor;) {
		size_t want = end - floor < sizeof buf ? (size_t)(end - floor) : sizeof buf;
		ssize_t got = pread(fd, buf, want, (off_t)(end - want));
		if (got != (ssize_t)want)
			return 0;
		const char *e = memrchr(buf, eol, want);
		if (e)
			return end - want + (uint64_t)(e - buf) + 1;
		end -= want;
	}
	return 0;
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
	struct segment *segs = calloc((size_t)n, sizeof *segs);
	if (!segs)
		return;
	struct input_options io = run_input_options(p->run->cfg);
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

/* Searches segment sg of job j on this worker; marks it done. */
static void run_segment(struct worker *w, struct job *j, struct segment *sg)
{
	struct pool *p = w->pool;
	const struct config *cfg = p->run->cfg;
	const char *name = run_display_name(cfg, j->path);
	w->job = j;
	w->seg = sg;
	w->pr.show_name = run_shows_name(cfg, j->command_line);
	w->searcher.used = false;
	w->searcher.cancel = &j->cancel;
	if (j->n_segs == 1) {
		search_input(&w->searcher, &j->whole, name, false, &sg->res);
		if (!j->whole.owns_fd && sg->res.stop_offset != UINT64_MAX) /* stdin after -m */
			lseek(j->whole.fd, (off_t)(j->whole.start + sg->res.stop_offset), SEEK_SET);
		input_close(&j->whole); /* here: its read() buffer stays this thread's */
	} else {
		struct input_options io = run_input_options(cfg);
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
	printer_flush(&w->pr);
	pthread_mutex_lock(&p->mu);
	sg->state = SEG_DONE;
	wake_committer(p, sg);
	wake_committer(p, j);
	pthread_mutex_unlock(&p->mu);
}

static void *worker_main(void *arg);

/* Under the lock: starts one more worker.  False when it could not. */
static bool start_worker(struct pool *p)
{
	if (p->started >= p->n_threads)
		return false;
	struct worker *w = calloc(1, sizeof *w);
	if (!w || printer_init(&w->pr, p->run->cfg, p->searcher.matcher) != 0) {
		free(w);
		return false;
	}
	w->pool = p;
	w->pr.sink = segment_sink;
	w->pr.sink_ctx = w;
	w->searcher = p->searcher;
	w->searcher.pr = &w->pr;
	w->searcher.output_before = worker_output_before;
	w->searcher.output_before_ctx = w;
	if (pthread_create(&p->threads[p->started], NULL, worker_main, w) != 0) {
		printer_free(&w->pr);
		free(w);
		return false;
	}
	p->started++;
	return true;
}

/* Under the lock: new jobs or segments can be claimed.  Wakes idle
 * workers, and starts new ones (up to --threads) while the unclaimed work
 * outnumbers the workers holding none: two small files on a 64-CPU machine
 * start two threads at most, not 64. */
static void offer_work(struct pool *p)
{
	if (p->idle_workers)
		pthread_cond_broadcast(&p->work_cv);
	size_t unclaimed = p->tail - p->claimed + p->free_segs;
	while (p->started - p->busy < unclaimed && start_worker(p))
		;
}

/* Opens job j (claimed by this worker), splits it and searches its first
 * segment. */
static void open_job(struct worker *w, struct job *j)
{
	struct pool *p = w->pool;
	enum open_outcome outcome = run_open(p->run, j->path, j->command_line, &j->whole, &j->err);
	if (outcome == OPEN_SEARCH)
		split_job(p, j);
	pthread_mutex_lock(&p->mu);
	j->outcome = outcome;
	j->state = JOB_READY;
	if (outcome == OPEN_SEARCH) {
		j->segs[0].state = SEG_RUNNING;
		j->next_seg = 1;
		p->free_segs += j->n_segs - 1;
		offer_work(p);
	}
	wake_committer(p, j);
	pthread_mutex_unlock(&p->mu);
	if (outcome == OPEN_SEARCH)
		run_segment(w, j, &j->segs[0]);
}

/* Under the lock: the oldest free segment of an opened job, else the
 * oldest unopened job (*open set).  False when there is none. */
static bool claim(struct pool *p, struct job **jp, struct segment **sp, bool *open)
{
	for (size_t k = p->head; p->free_segs > 0 && k < p->claimed; k++) {
		struct job *j = job_at(p, k);
		if (j->state == JOB_READY && j->next_seg < j->n_segs) {
			p->free_segs--;
			*jp = j;
			*sp = &j->segs[j->next_seg++];
			(*sp)->state = SEG_RUNNING;
			*open = false;
			return true;
		}
	}
	while (p->claimed < p->tail) {
		struct job *j = job_at(p, p->claimed++);
		if (j->walk_err)
			continue; /* nothing to search: READY when queued */
		j->state = JOB_OPENING;
		*jp = j;
		*open = true;
		return true;
	}
	return false;
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
		if (!claim(p, &j, &sg, &open)) {
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
		pthread_mutex_lock(&p->mu);
		p->busy--;
	}
	pthread_mutex_unlock(&p->mu);
	printer_free(&w->pr);
	input_thread_done();
	free(w);
	return NULL;
}

/* ---- committer side (the main thread) ----------------------------------- */

/* Writes segment sg's output in order through the run's printer: what it
 * holds, then (as the head, after a flush) what its worker writes itself;
 * returns when the segment is done. */
static void commit_segment(struct pool *p, struct segment *sg)
{
	struct printer *pr = &p->run->pr;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (sg->out_len > 0) { /* copy held bytes outside the lock */
			char *out = sg->out;
			size_t len = sg->out_len;
			sg->out = NULL;
			sg->out_len = sg->out_cap = 0;
			p->buffered -= len;
			wake_turns(p);
			pthread_mutex_unlock(&p->mu);
			printer_append(pr, out, len);
			free(out);
			pthread_mutex_lock(&p->mu);
			continue;
		}
		if (sg->state == SEG_DONE)
			break;
		if (!sg->head) { /* the worker writes to stdout from now on */
			if (pr->len > 0) {
				pthread_mutex_unlock(&p->mu);
				printer_flush(pr);
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
	wake_turns(p); /* sinks waiting for their turn give up */
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
	}
	wake_turns(p);
	pthread_mutex_unlock(&p->mu);
}

/* Adds segment result r to the file's result t: what run_report_result and
 * the group separators need (the stop decisions read each segment's own). */
static void fold_result(struct search_result *t, const struct search_result *r)
{
	t->selected = r->without_match ? 0 : t->selected + r->selected;
	t->binary_matched |= r->binary_matched;
	if (r->read_error && !t->read_error) {
		t->read_error = true;
		t->read_errno = r->read_errno;
		t->read_why = r->read_why;
	}
	t->truncated |= r->truncated;
	t->used |= r->used;
}

/* The rest of a split file from file offset `lo` on, up to where the file
 * ends when it is read (it may have grown since it was split), searched on
 * this thread: after the last segment, or as binary from its first byte
 * after a segment turned the file binary. */
static void search_rest(struct pool *p, struct job *j, uint64_t lo, bool binary, const char *name,
			struct search_result *total)
{
	struct run *r = p->run;
	struct input_options io = run_input_options(r->cfg);
	struct input in;
	struct search_result res;
	if (input_open_range(&in, &j->whole, lo, INPUT_TO_END, &io) != 0)
		return;
	r->pr.show_name = run_shows_name(r->cfg, j->command_line);
	search_input(&r->searcher, &in, name, binary, &res);
	input_close(&in);
	printer_flush(&r->pr);
	fold_result(total, &res);
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

/* Reports opened job j: its segments' output in order, then its result. */
static void report_job(struct pool *p, struct job *j)
{
	struct run *r = p->run;
	const char *name = run_display_name(r->cfg, j->path);
	if (j->walk_err) {
		run_walk_error(j->path, j->walk_err, r);
		return;
	}
	if (j->outcome != OPEN_SEARCH) {
		run_report_open(r, name, j->command_line, j->outcome, j->err);
		return;
	}
	struct search_result total = { .stop_offset = UINT64_MAX };
	size_t k = 0;
	for (; k < j->n_segs; k++) {
		commit_segment(p, &j->segs[k]);
		const struct search_result *res = &j->segs[k].res;
		fold_result(&total, res);
		if (res->done || res->read_error || res->truncated || res->binary)
			break;
	}
	if (k + 1 < j->n_segs)
		drop_segments(p, j, k + 1);
	if (k == j->n_segs && j->n_segs > 1) {
		search_rest(p, j, j->segs[k - 1].hi, false, name, &total);
	} else if (j->n_segs > 1) {
		const struct search_result *res = &j->segs[k].res;
		if (res->binary && !res->done && !res->without_match && !res->read_error && !res->truncated)
			search_rest(p, j, j->segs[k].hi, true, name, &total);
	}
	if (j->n_segs > 1) {
		input_close(&j->whole);
		free(j->segs);
	}
	r->pr.name = name;
	r->pr.show_name = run_shows_name(r->cfg, j->command_line);
	r->searcher.used |= total.used;
	pthread_mutex_lock(&p->mu);
	p->used = r->searcher.used;
	pthread_mutex_unlock(&p->mu);
	run_report_result(r, name, &total);
}

/* Commits the job at the head of the queue (waiting for it), or discards
 * it once the run is over, and frees it. */
static void commit_head(struct pool *p)
{
	struct job *j = job_at(p, p->head);
	bool over = p->run->stop;
	pthread_mutex_lock(&p->mu);
	if (over && j->state == JOB_QUEUED) {
		/* unclaimed, so claims stand at it (they go in order): never open it */
		p->claimed++;
		j->state = JOB_READY;
		j->outcome = OPEN_SKIP;
	}
	while (j->state != JOB_READY)
		await_committer(p, j);
	pthread_mutex_unlock(&p->mu);
	if (over)
		discard_job(p, j);
	else
		report_job(p, j);
	free(j->path);
	pthread_mutex_lock(&p->mu);
	memset(j, 0, sizeof *j);
	p->head++;
	/* A walk error is committed without being claimed: no worker may
	 * claim its slot afterwards, emptied or reused by a later add. */
	if (p->claimed < p->head)
		p->claimed = p->head;
	wake_turns(p); /* output_before waits for the head */
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

/* Whether the head job is finished, so committing it will not wait. */
static bool head_finished(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	bool done = p->head < p->tail && job_finished(p, p->head);
	pthread_mutex_unlock(&p->mu);
	return done;
}

/* The queue is full: sleeps until the job a quarter of the ring ahead is
 * finished, then commits every finished job at the head (one wake-up for
 * many small files, not one each), or waits for the head itself.  A worker
 * waiting for its turn cuts the sleep short: its job can finish only after
 * the jobs before it are committed. */
static void make_room(struct pool *p)
{
	size_t ahead = p->head + POOL_RING / 4;
	pthread_mutex_lock(&p->mu);
	while (!job_finished(p, ahead) && p->turn_waiters == 0)
		await_committer(p, job_at(p, ahead));
	pthread_mutex_unlock(&p->mu);
	if (!head_finished(p))
		commit_head(p);
	while (head_finished(p))
		commit_head(p);
}

struct pool *pool_new(struct run *r, unsigned threads, uint64_t segment_size)
{
	struct pool *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->run = r;
	p->searcher = r->searcher;
	p->n_threads = threads < MAX_THREADS ? threads : MAX_THREADS;
	p->segment_size = segment_size ? segment_size : POOL_SEGMENT_SIZE;
	p->split = pool_can_split(r->cfg);
	p->budget = p->segment_size < SIZE_MAX / POOL_BUFFER_SEGMENTS
			    ? (size_t)p->segment_size * POOL_BUFFER_SEGMENTS : SIZE_MAX;
	p->used = r->searcher.used;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work_cv, NULL);
	pthread_cond_init(&p->commit_cv, NULL);
	pthread_cond_init(&p->turn_cv, NULL);
	return p;
}

/* Queues a job; false when the path could not be copied. */
static bool add_job(struct pool *p, const char *path, bool command_line, int walk_err)
{
	while (p->tail - p->head == POOL_RING)
		make_room(p);
	char *copy = strdup(path);
	if (!copy)
		return false;
	pthread_mutex_lock(&p->mu);
	struct job *j = job_at(p, p->tail);
	j->path = copy;
	j->command_line = command_line;
	j->walk_err = walk_err;
	j->state = walk_err ? JOB_READY : JOB_QUEUED;
	p->tail++;
	if (!walk_err)
		offer_work(p);
	pthread_mutex_unlock(&p->mu);
	while (head_finished(p))
		commit_head(p);
	return true;
}

/* Whether a worker runs, starting the first one if none does.  `started`
 * is written under the lock by any thread that starts a worker. */
static bool workers_running(struct pool *p, bool start)
{
	pthread_mutex_lock(&p->mu);
	bool running = p->started > 0 || (start && start_worker(p));
	pthread_mutex_unlock(&p->mu);
	return running;
}

int pool_add_path(const char *path, bool command_line, void *ctx)
{
	struct pool *p = ctx;
	if (!workers_running(p, true)) /* no thread could start: search it here */
		return run_search_path(path, command_line, p->run);
	if (strcmp(path, "-") == 0) { /* one reader of stdin at a time, in order */
		while (p->head < p->last_stdin)
			commit_head(p);
		p->last_stdin = p->tail + 1;
	}
	if (!add_job(p, path, command_line, 0))
		return run_search_path(path, command_line, p->run);
	return p->run->stop;
}

void pool_walk_error(const char *path, int err, void *ctx)
{
	struct pool *p = ctx;
	if (!workers_running(p, false) || !add_job(p, path, false, err))
		run_walk_error(path, err, p->run);
}

void pool_finish(struct pool *p)
{
	while (p->head < p->tail)
		commit_head(p);
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
