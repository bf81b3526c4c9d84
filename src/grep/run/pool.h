/* SPDX-License-Identifier: MIT */
/* pool.h - searching a run's inputs on worker threads, output in order.
 *
 * Owns: the worker threads, the queue of inputs in the order grep visits
 * them, splitting a large regular file into line-aligned segments searched
 * at once, and committing every input's output, messages and report in
 * queue order, so that the bytes on stdout and stderr are those of a
 * search on one thread.  What is decided per input is run.c's; searching
 * is search.c's.
 *
 * Output of an input that is not yet next in order is held in memory (at
 * most POOL_BUFFER_SEGMENTS segments' worth in all, 64 MiB by default; a
 * worker past it waits for its turn); the input being committed writes
 * straight to stdout.
 */
#ifndef ACGREP_POOL_H
#define ACGREP_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "run_options.h"
#include "run.h"

/* Default segment size: a regular file of at least twice this is split. */
#define POOL_SEGMENT_SIZE ((uint64_t)8 << 20)
/* Output held for later inputs: at most this many segment sizes. */
#define POOL_BUFFER_SEGMENTS 8
/* Inputs queued at most: the walk runs this far ahead of the commits. */
#define POOL_RING 256

/* Most inputs one claim of a worker takes: a file and the files after it
 * that the walk found in the same directory (a reservation, which a worker
 * out of work may take from).  A run of one directory's files is then
 * opened on one thread, one claim for them all: a file handed to another
 * thread each time costs the lock and the directory's descriptor a cache
 * line moving between CPUs (-r over the Linux tree: 7% more time). */
#define POOL_RESERVE 16

struct pool;

/* Whether this run may search on worker threads at all: more than one
 * thread, an engine that threads can share (not PCRE2's scratch), and no
 * --line-buffered (whose user wants each line as soon as it is found). */
bool pool_usable(const struct run_options *opt, unsigned threads);

/* Whether a file may be split into segments searched apart: nothing in the
 * output depends on what came before a line in its file (no -n, no --json
 * with its line numbers, no -m, no context), and it is read() (--mmap hands a whole file out as one window,
 * which decides what a NUL byte makes binary). */
bool pool_can_split(const struct run_options *opt);

/* A pool of `threads` workers for run r (started at the first input),
 * splitting files of at least 2 * segment_size bytes when pool_can_split.
 * one_input: the run searches one input, a file; it is opened and split
 * on the calling thread, and searched there when it yields one segment.
 * Returns NULL when out of memory. */
struct pool *pool_new(struct run *r, unsigned threads, uint64_t segment_size, bool one_input);

/* walk_file_fn: queues an input (ctx is the pool).  Commits finished
 * inputs at the head of the queue; waits when the queue is full. */
int pool_add_path(const char *path, struct dir_ref *dir, bool command_line, bool plain, void *ctx);

/* walk_error_fn: queues a walk error, reported in its place. */
void pool_walk_error(const char *path, int err, void *ctx);

/* Commits everything queued, stops the workers and frees the pool. */
void pool_finish(struct pool *p);

#endif
