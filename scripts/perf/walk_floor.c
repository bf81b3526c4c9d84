/* SPDX-License-Identifier: MIT */
/* walk_floor.c - what `acgrep -r` cannot do faster than: the same walk
 * (acgrep's own walk_operand, as -r), then open, read and close of every
 * file found (and fstat where acgrep's input_open makes one: not for a
 * file the walk found plain whose first read came back short), with no
 * search, on acgrep's thread layout.
 *
 * Usage: walk_floor [--threads=N] DIR...
 *
 * --threads=1 does everything on one thread, as acgrep --threads=1 does.
 * Otherwise (default: one per CPU this process may run on, as acgrep) the
 * main thread walks and queues the names, and N workers take them oldest
 * first, as acgrep's pool does.  Each file is read in INPUT_GREP_BUFFER
 * pieces into one buffer per thread until its size at open is read or
 * read() returns 0.  Prints "FILES BYTES" (the files read and their bytes)
 * on stdout; a file or directory that cannot be read is named on stderr
 * and the exit status is 2.  scripts/perf/floor.sh times it beside
 * acgrep -r and rg -r.
 */
#include "input/input.h"
#include "input/walk.h"

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

/* The names the walk found and the workers have not taken, oldest first. */
struct queue {
	pthread_mutex_t lock;
	pthread_cond_t ready;
	char **names;
	size_t head, tail, cap;
	bool done; /* the walk has ended */
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
static void read_file(const char *path, bool plain, char *buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
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

/* The next name to read, or NULL once the walk has ended and none is left. */
static char *queue_take(struct queue *q)
{
	pthread_mutex_lock(&q->lock);
	while (q->head == q->tail && !q->done)
		pthread_cond_wait(&q->ready, &q->lock);
	char *name = q->head < q->tail ? q->names[q->head++] : NULL;
	pthread_mutex_unlock(&q->lock);
	return name;
}

static void *worker_main(void *arg)
{
	struct queue *q = arg;
	char *buf = thread_buffer();
	for (char *name; (name = queue_take(q)) != NULL; free(name))
		read_file(name + 1, name[0] == 'p', buf);
	free(buf);
	return NULL;
}

/* Queues "p" or "-" (plain or not) and the path. */
static int queue_add(const char *path, bool command_line, bool plain, void *ctx)
{
	(void)command_line;
	struct queue *q = ctx;
	size_t len = strlen(path);
	char *name = malloc(len + 2);
	if (!name)
		fail("name");
	name[0] = plain ? 'p' : '-';
	memcpy(name + 1, path, len + 1);
	pthread_mutex_lock(&q->lock);
	if (q->tail == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 1024;
		char **grown = realloc(q->names, q->cap * sizeof *grown);
		if (!grown)
			fail("queue");
		q->names = grown;
	}
	q->names[q->tail++] = name;
	pthread_cond_signal(&q->ready);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

static char *inline_buffer;

static int read_now(const char *path, bool command_line, bool plain, void *ctx)
{
	(void)command_line;
	(void)ctx;
	read_file(path, plain, inline_buffer);
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
	struct queue q = { .lock = PTHREAD_MUTEX_INITIALIZER, .ready = PTHREAD_COND_INITIALIZER };
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
	free(q.names);
	free(inline_buffer);
	return trouble ? 2 : 0;
}
