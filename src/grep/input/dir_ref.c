/* SPDX-License-Identifier: MIT */
/* dir_ref.c - a directory's descriptor shared by the walk and the searches
 * of the files it found there (see dir_ref.h). */
#include "dir_ref.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dir_ref {
	int fd;
	atomic_uint refs;
};

/* dir_refs open in the process. */
static atomic_uint open_count;

struct dir_ref *dir_ref_new(int fd)
{
	struct dir_ref *d = malloc(sizeof *d);
	if (!d)
		return NULL;
	*d = (struct dir_ref){ .fd = fd };
	atomic_init(&d->refs, 1);
	atomic_fetch_add_explicit(&open_count, 1, memory_order_relaxed);
	return d;
}

int dir_ref_fd(const struct dir_ref *d)
{
	return d->fd;
}

void dir_ref_hold(struct dir_ref *d)
{
	atomic_fetch_add_explicit(&d->refs, 1, memory_order_relaxed);
}

void dir_ref_drop(struct dir_ref *d)
{
	/* release: this holder's use of fd comes before the close */
	if (!d || atomic_fetch_sub_explicit(&d->refs, 1, memory_order_acq_rel) != 1)
		return;
	close(d->fd);
	free(d);
	atomic_fetch_sub_explicit(&open_count, 1, memory_order_relaxed);
}

unsigned dir_ref_open_count(void)
{
	return atomic_load_explicit(&open_count, memory_order_relaxed);
}

const char *dir_ref_entry_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}
