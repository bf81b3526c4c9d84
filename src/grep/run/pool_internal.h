/* SPDX-License-Identifier: MIT */
/* pool_internal.h - what pool.c (the workers, the queue, the public
 * functions), pool_claim.c (what a worker takes next) and pool_commit.c
 * (committing in order, on the main thread) share: the pool, its jobs
 * and segments, and the lock's wake-ups.  Nothing outside the pool
 * includes it.
 */
#ifndef ACGREP_POOL_INTERNAL_H
#define ACGREP_POOL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "input/input.h"
#include "output/print.h"
#include "pool.h"
#include "run.h"
#include "search/search.h"
#include "tally_run.h"

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

/* JOB_QUEUED: not opened.  At or past `claimed`, free to claim; before it,
 * reserved by a worker (POOL_RESERVE), which any worker out of work may
 * take first (the reserving one skips it then). */
enum job_state { JOB_QUEUED, JOB_OPENING, JOB_READY };

/* Paths up to this long (with their NUL) are kept in their job, longer
 * ones copied with malloc: most of a tree's fit, and a copy a file cost
 * the walk's thread a malloc and a free (300 instructions; 256 paths in
 * the ring are more than the allocator's per-thread cache holds). */
#define JOB_PATH_INLINE 128

struct job {
	char *path;             /* path_inline, or a copy to free */
	char path_inline[JOB_PATH_INLINE];
	struct dir_ref *dir;    /* walk_file_fn's, held until the job is committed */
	bool command_line;
	bool plain;             /* walk_file_fn's */
	int walk_err;           /* non-zero: a walk error to report, no input */
	enum job_state state;
	enum open_outcome outcome;
	int err;
	struct input whole;     /* open while the job's segments run */
	struct segment *segs;   /* n_segs of them; &one when not split */
	struct segment one;
	size_t n_segs, next_seg;
	struct stat split_stat; /* the file when it was split (n_segs > 1) */
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
	size_t reserved;          /* jobs reserved, still JOB_QUEUED */
	struct job ring[POOL_RING];
	size_t head, claimed, tail; /* counters: commit, open, add (mod POOL_RING) */
	pthread_t threads[MAX_THREADS];
	unsigned n_threads, started;
	bool running;           /* the main thread's: started > 0 seen */
	bool closing;
	bool split;
	bool one_input;         /* the main thread's: the next input is the run's only one */
	uint64_t segment_size;
	size_t last_stdin;      /* 1 + the counter of the last "-" job queued, or 0 */
	size_t buffered;        /* bytes held in segments' out buffers */
	size_t budget;          /* most bytes held before workers wait their turn */
	bool used;              /* searcher.used after the committed jobs */
};

struct worker {
	struct pool *pool;
	struct outbuf out;         /* flushes to segment_write */
	struct printer pr;
	struct json_writer *json;  /* --json's, over out */
	struct searcher searcher;
	struct patterns_seen seen; /* the searcher's, when statistics are kept */
	struct job *job;
	struct segment *seg;
	size_t resv_next, resv_end; /* its reservation: counters, as head */
};

static inline struct job *job_at(struct pool *p, size_t k)
{
	return &p->ring[k % POOL_RING];
}

/* Waking only the thread that waits for this change: one wake-up per file
 * is a system call and a context switch, a third of a small file's cost.
 * All are called with the lock held (await_turn, the fourth, is pool.c's). */
static inline void wake_committer(struct pool *p, const void *what)
{
	if (p->awaited == what)
		pthread_cond_signal(&p->commit_cv);
}

static inline void await_committer(struct pool *p, const void *what)
{
	p->awaited = what;
	pthread_cond_wait(&p->commit_cv, &p->mu);
	p->awaited = NULL;
}

static inline void wake_turns(struct pool *p)
{
	if (p->turn_waiters)
		pthread_cond_broadcast(&p->turn_cv);
}

/* pool_claim.c, called by a worker with the lock held: for worker w, the
 * next job it reserved, else the oldest free segment of an opened job
 * (*sp, *open false), else the oldest unclaimed job (reserving the ones
 * after it), else the oldest one reserved by another worker (*jp, *open
 * true; the job is JOB_OPENING).  False when there is none.  A worker
 * with a reservation holds nothing later than it (its own come first, it
 * takes another's only with none left): the oldest job not committed is
 * then always held by a worker that can go on, or the next its worker
 * opens. */
bool pool_claim(struct pool *p, struct worker *w, struct job **jp, struct segment **sp, bool *open);

/* pool_commit.c, called by the main thread without the lock. */

/* Commits the job at the head of the queue (waiting for it), or discards
 * it once the run is over, and frees it. */
void pool_commit_head(struct pool *p);

/* Called with the lock held, returns without it: commits every finished
 * job at the head of the queue, the lock taken once for each run of them
 * (none waits).  The head moves past a run once all of it is committed. */
void pool_commit_locked(struct pool *p);

/* Whether the head job is finished, so committing it will not wait. */
bool pool_head_finished(struct pool *p);

/* The queue is full: commits at the head until there is room. */
void pool_make_room(struct pool *p);

#endif
