/* SPDX-License-Identifier: MIT */
/* walk_floor.c - what `acgrep -r` cannot do faster than: the same walk
 * (acgrep's own walk_operand, as -r), then open, read and close of every
 * file found (and fstat where acgrep's input_open makes one: not for a
 * file the walk found plain whose first read came back short), with no
 * search, on acgrep's thread layout.  A file is opened as acgrep opens
 * it: relative to its directory's descriptor where the walk gives one.
 *
 * Usage: walk_floor [--threads=N] DIR...
 *
 * --threads=1 does everything on one thread, as acgrep --threads=1 does.
 * Otherwise (default: one per CPU this process may run on, as acgrep) the
 * main thread walks and queues the files, and N workers take them oldest
 * first, each a run of one directory's files at a time (POOL_RESERVE at
 * most, a worker's share of the queue, none while a worker waits), as
 * acgrep's pool claims them.  Each file is read in INPUT_GREP_BUFFER
 * pieces into one buffer per thread until its size at open is read or
 * read() returns 0.  Prints "FILES BYTES" (the files read and their bytes)
 * on stdout; a file or directory that cannot be read is named on stderr
 * and the exit status is 2.  scripts/perf/floor.sh times it beside
 * acgrep -r and rg -r.
 */
#include "input/dir_ref.h"
#include "input/input.h"
#include "input/walk.h"
#include "run/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file the walk found: walk_file_fn's arguments, the path a copy. */
struct item {
	char *path;
	struct dir_ref *dir; /* held until the file is opened */
	bool plain;
};

/* Files queued at most, as acgrep's pool holds at most POOL_RING jobs:
 * the walk is as far ahead of the searches, and keeps as many directories
 * open for them.  A full queue wakes the walk when half of it is taken,
 * as pool_make_room waits for the job half the ring ahead. */
#define QUEUE_MAX POOL_RING

/* The files the walk found and the workers have not taken, oldest first. */
struct queue {
	pthread_mutex_t lock;
	pthread_cond_t ready, room;
	struct item *items;
	size_t head, tail, cap;
	unsigned threads, waiting; /* workers, and those waiting for a file */
	bool done;                 /* the walk has ended */
};

static atomic_ullong files_read, bytes_read;
static atomic_bool trouble;

static void fail(const char *what)
{
	fprintf(stderr, "walk_floor: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Opens, reads whole and closes one file with the thread's buffer; a
 * plain one (walk_file_fn's) is read before any fstat, and a short first
 * read is all of it. */
static void read_file(const char *path, struct dir_ref *dir, bool plain, char *buf)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY;
	int fd = dir ? openat(dir_ref_fd(dir), dir_ref_entry_name(path), flags) : open(path, flags);
	ssize_t n = 0;
	if (fd >= 0 && plain)
		n = read(fd, buf, INPUT_GREP_BUFFER);
	struct stat st = { .st_mode = S_IFREG, .st_size = n };
	bool short_read = plain && n >= 0 && n < (ssize_t)INPUT_GREP_BUFFER;
	if (fd < 0 || n < 0 || (!short_read && fstat(fd, &st) != 0)) {
		fprintf(stderr, "walk_floor: %s: %s\n", path, strerror(errno));
		trouble = true;
		if (fd >= 0)
			close(fd);
		return;
	}
	unsigned long long total = (unsigned long long)n;
	while ((!S_ISREG(st.st_mode) || total < (unsigned long long)st.st_size) &&
	       (n = read(fd, buf, INPUT_GREP_BUFFER)) > 0)
		total += (unsigned long long)n;
	close(fd);
	files_read++;
	bytes_read += total;
}

static char *thread_buffer(void)
{
	char *buf = malloc(INPUT_GREP_BUFFER);
	if (!buf)
		fail("read buffer");
	return buf;
}

/* Takes the next files to read into its[0..n), n returned: a run of one
 * directory's, up to POOL_RESERVE and a worker's share of the queue, one
 * alone while another worker waits; 0 once the walk has ended and none is
 * left. */
static size_t queue_take(struct queue *q, struct item *its)
{
	pthread_mutex_lock(&q->lock);
	while (q->head == q->tail && !q->done) {
		q->waiting++;
		pthread_cond_wait(&q->ready, &q->lock);
		q->waiting--;
	}
	size_t n = 0, most = q->waiting ? 1 : 1 + (q->tail - q->head - 1) / q->threads;
	while (n < most && n < POOL_RESERVE && q->head < q->tail &&
	       (n == 0 || (its[0].dir && q->items[q->head].dir == its[0].dir))) {
		its[n++] = q->items[q->head++];
		if (q->tail - q->head == QUEUE_MAX / 2)
			pthread_cond_signal(&q->room);
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

static void *worker_main(void *arg)
{
	struct queue *q = arg;
	char *buf = thread_buffer();
	struct item its[POOL_RESERVE];
	for (size_t n; (n = queue_take(q, its)) > 0;)
		for (size_t i = 0; i < n; i++) {
			read_file(its[i].path, its[i].dir, its[i].plain, buf);
			dir_ref_drop(its[i].dir);
			free(its[i].path);
		}
	free(buf);
	return NULL;
}

static int queue_add(const char *path, struct dir_ref *dir, bool command_line, bool plain, void *ctx)
{
	(void)command_line;
	struct queue *q = ctx;
	struct item it = { .path = strdup(path), .dir = dir, .plain = plain };
	if (!it.path)
		fail("name");
	if (dir)
		dir_ref_hold(dir);
	pthread_mutex_lock(&q->lock);
	if (q->tail - q->head >= QUEUE_MAX)
		while (q->tail - q->head > QUEUE_MAX / 2)
			pthread_cond_wait(&q->room, &q->lock);
	if (q->tail == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 1024;
		struct item *grown = realloc(q->items, q->cap * sizeof *grown);
		if (!grown)
			fail("queue");
		q->items = grown;
	}
	q->items[q->tail++] = it;
	pthread_cond_signal(&q->ready);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

static char *inline_buffer;

static int read_now(const char *path, struct dir_ref *dir, bool command_line, bool plain, void *ctx)
{
	(void)command_line;
	(void)ctx;
	read_file(path, dir, plain, inline_buffer);
	return 0;
}

static void walk_error(const char *path, int err, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "walk_floor: %s: %s\n", path, strerror(err));
	trouble = true;
}

static unsigned cpus(void)
{
	cpu_set_t set;
	long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (unsigned)n;
}

int main(int argc, char **argv)
{
	unsigned threads = cpus();
	int a = 1;
	if (a < argc && strncmp(argv[a], "--threads=", 10) == 0) {
		char *end;
		unsigned long n = strtoul(argv[a] + 10, &end, 10);
		if (*end || n < 1 || n > 1024) {
			fprintf(stderr, "walk_floor: --threads takes 1 to 1024, not %s\n", argv[a] + 10);
			return 2;
		}
		threads = (unsigned)n;
		a++;
	}
	if (a == argc) {
		fprintf(stderr, "usage: walk_floor [--threads=N] DIR...\n");
		return 2;
	}
	struct walk_options opts = { .recurse = 1 };
	struct queue q = { .lock = PTHREAD_MUTEX_INITIALIZER, .ready = PTHREAD_COND_INITIALIZER,
			   .room = PTHREAD_COND_INITIALIZER, .threads = threads };
	pthread_t *workers = NULL;
	if (threads > 1) {
		workers = malloc(threads * sizeof *workers);
		if (!workers)
			fail("threads");
		for (unsigned i = 0; i < threads; i++)
			if ((errno = pthread_create(&workers[i], NULL, worker_main, &q)) != 0)
				fail("pthread_create");
	} else {
		inline_buffer = thread_buffer();
	}
	for (; a < argc; a++)
		if (walk_operand(argv[a], &opts, threads > 1 ? queue_add : read_now, walk_error, &q) < 0)
			fail(argv[a]);
	if (threads > 1) {
		pthread_mutex_lock(&q.lock);
		q.done = true;
		pthread_cond_broadcast(&q.ready);
		pthread_mutex_unlock(&q.lock);
		for (unsigned i = 0; i < threads; i++)
			pthread_join(workers[i], NULL);
	}
	printf("%llu %llu\n", (unsigned long long)files_read, (unsigned long long)bytes_read);
	free(workers);
	free(q.items);
	free(inline_buffer);
	return trouble ? 2 : 0;
}
