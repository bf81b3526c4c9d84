/* SPDX-License-Identifier: MIT */
/* pool_claim.c - what a pool worker searches next (pool_claim, see
 * pool_internal.h): its own reserved jobs first, then the oldest free
 * segment of a split file, then the oldest unclaimed job with the files
 * after it from the same directory reserved (POOL_RESERVE), then the
 * oldest job another worker reserved.  Called with the pool's lock held.
 */
#include "pool_internal.h"

/* Under the lock: reserves for worker w the jobs after job j (just
 * claimed) that the walk found in j's directory, POOL_RESERVE - 1 at most
 * and no more than a worker's share of the queue, and only while no
 * worker is idle: a reservation never leaves another thread waiting. */
static void reserve_after(struct pool *p, struct worker *w, const struct job *j)
{
	w->resv_next = w->resv_end = p->claimed;
	if (!j->dir || p->idle_workers > 0)
		return;
	size_t n = (p->tail - p->claimed) / p->n_threads;
	for (n = n < POOL_RESERVE - 1 ? n : POOL_RESERVE - 1; n > 0; n--) {
		const struct job *k = job_at(p, p->claimed);
		if (k->walk_err || k->dir != j->dir)
			break;
		p->claimed++;
		p->reserved++;
	}
	w->resv_end = p->claimed;
}

/* Under the lock: the oldest job still queued among worker w's reserved
 * ones (mine) or any worker's, or NULL.  A reserved job taken by another
 * worker, or skipped by the committer once the run is over, is no longer
 * queued; one before the head is committed, and its slot may hold a later
 * job already. */
static struct job *take_reserved(struct pool *p, struct worker *w, bool mine)
{
	size_t k = mine ? w->resv_next : p->head, end = mine ? w->resv_end : p->claimed;
	for (k = k > p->head ? k : p->head; p->reserved > 0 && k < end; k++) {
		struct job *j = job_at(p, k);
		if (j->state == JOB_QUEUED) {
			p->reserved--;
			if (mine)
				w->resv_next = k + 1;
			return j;
		}
	}
	if (mine)
		w->resv_next = w->resv_end;
	return NULL;
}

bool pool_claim(struct pool *p, struct worker *w, struct job **jp, struct segment **sp, bool *open)
{
	struct job *j = take_reserved(p, w, true);
	for (size_t k = p->head; !j && p->free_segs > 0 && k < p->claimed; k++) {
		struct job *opened = job_at(p, k);
		if (opened->state == JOB_READY && opened->next_seg < opened->n_segs) {
			p->free_segs--;
			*jp = opened;
			*sp = &opened->segs[opened->next_seg++];
			(*sp)->state = SEG_RUNNING;
			*open = false;
			return true;
		}
	}
	while (!j && p->claimed < p->tail) {
		struct job *k = job_at(p, p->claimed++);
		if (k->walk_err)
			continue; /* nothing to search: READY when queued */
		reserve_after(p, w, k);
		j = k;
	}
	if (!j)
		j = take_reserved(p, w, false);
	if (!j)
		return false;
	j->state = JOB_OPENING;
	*jp = j;
	*open = true;
	return true;
}
