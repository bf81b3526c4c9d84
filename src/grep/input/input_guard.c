/* SPDX-License-Identifier: MIT */
/* input_guard.c - the SIGBUS guard for mapped inputs (see input.h).
 *
 * Owns: the process-wide SIGBUS handler, each thread's armed jump target,
 * the checkpoints of a reader under the guard (its undo log, struct
 * input_undo: pieces of memory copied, keepers called, where the input
 * stands before each window and where the reader is done within a mapped
 * one), and the way back after a fault (input_read_guarded).  A mapped
 * file that shrinks under a search raises SIGBUS in the thread that
 * touches a vanished page; the handler jumps back into input_read_guarded,
 * which puts the reader back at its last checkpoint and has the input go
 * on with read() from there (input_reread_from).  What may run
 * while armed: DESIGN.md, "What may run under the SIGBUS guard".
 */
#include "input_internal.h"

#include <assert.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/* The armed jump target.  `guard_armed` is what the handler trusts; the
 * pointer is only read after it. */
static _Thread_local sigjmp_buf *volatile guard_target;
static _Thread_local volatile sig_atomic_t guard_armed;

static void on_sigbus(int sig)
{
	if (guard_armed) {
		sigjmp_buf *target = guard_target;
		guard_armed = 0;
		if (target)
			siglongjmp(*target, 1);
	}
	/* Not ours: die the way the signal would have killed us. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

void input_guard_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	/* Not blocked while handled, so the jump out of the handler needs no
	 * saved signal mask: sigsetjmp(jb, 0) costs no system call per file. */
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
}

void input_guard_arm(sigjmp_buf *target)
{
	guard_target = target;
	atomic_signal_fence(memory_order_seq_cst);
	guard_armed = 1;
	atomic_signal_fence(memory_order_seq_cst);
}

void input_guard_disarm(void)
{
	guard_armed = 0;
	atomic_signal_fence(memory_order_seq_cst);
	guard_target = NULL;
}

void input_undo_keeps(struct input_undo *u, void *state, size_t size)
{
	size_t used = 0;
	for (size_t i = 0; i < u->n_pieces; i++)
		used += u->piece[i].size;
	assert(u->n_pieces < INPUT_UNDO_PIECES && size <= INPUT_UNDO_BYTES - used);
	u->piece[u->n_pieces].state = state;
	u->piece[u->n_pieces++].size = size;
}

void input_undo_calls(struct input_undo *u, struct input_keeper k)
{
	assert(u->n_keepers < INPUT_UNDO_KEEPERS && k.save && k.restore);
	u->keeper[u->n_keepers++] = k;
}

/* Nothing is to be restored until the next save. */
static void release(struct input_undo *u)
{
	for (size_t i = 0; i < u->n_keepers; i++)
		if (u->keeper[i].release)
			u->keeper[i].release(u->keeper[i].ctx);
}

/* Exchanges the reader's pieces with the copy kept at the last save. */
static void swap_state(struct input_undo *u)
{
	unsigned char *kept = u->copy, tmp[INPUT_UNDO_BYTES];
	for (size_t i = 0; i < u->n_pieces; i++) {
		size_t n = u->piece[i].size;
		memcpy(tmp, u->piece[i].state, n);
		memcpy(u->piece[i].state, kept, n);
		memcpy(kept, tmp, n);
		kept += n;
	}
}

/* After a SIGBUS: the reader back at its last save (its pieces put back,
 * then its keepers' restore; refused, its pieces as the fault left them),
 * the input read on from there. */
static bool go_back(struct input *in, struct input_undo *u)
{
	in->undo_armed = false;
	if (!in->mapped)
		return false;
	swap_state(u);
	for (size_t i = 0; i < u->n_keepers; i++)
		if (!u->keeper[i].restore(u->keeper[i].ctx)) {
			assert(i == 0); /* what the others restored cannot be undone */
			swap_state(u);
			return false;
		}
	return input_reread_from(in, u->at) == 0;
}

/* After the jump out of the handler: SIGBUS unblocked again.  Our handler
 * runs with it unblocked (SA_NODEFER), but a handler interposed in front
 * of ours may not (ThreadSanitizer's blocks it), and the jump, saving no
 * signal mask, leaves the mask as the handler had it: the next fault,
 * blocked, would kill the process.  A system call on the fault's path
 * only. */
static void unblock_sigbus(void)
{
	sigset_t bus;
	sigemptyset(&bus);
	sigaddset(&bus, SIGBUS);
	pthread_sigmask(SIG_UNBLOCK, &bus, NULL);
}

/* The guarded read is over: nothing is kept for it any more. */
static void end_guarded(struct input *in, struct input_undo *u)
{
	input_guard_disarm();
	in->undo = NULL;
	in->undo_armed = false;
	release(u);
}

void input_next_saves(struct input *in)
{
	in->undo_armed = false;
	if (in->undo)
		input_undo_save(in->undo, input_at(in));
}

void input_next_arms(struct input *in, int rc)
{
	if (!in->undo)
		return;
	in->undo_armed = rc == 1 && in->mapped;
	if (!in->undo_armed)
		release(in->undo);
}

bool input_read_guarded(struct input *in, struct input_undo *u, void (*reader)(void *ctx),
			void *ctx)
{
	sigjmp_buf jb;
	in->undo = u;
	in->undo_armed = false;
	input_undo_save(u, input_at(in));
	/* after a jump that found the way back, the reader runs again */
	if (sigsetjmp(jb, 0)) {
		unblock_sigbus();
		if (!go_back(in, u)) {
			end_guarded(in, u);
			return false;
		}
	}
	input_guard_arm(&jb);
	reader(ctx);
	end_guarded(in, u);
	return true;
}
