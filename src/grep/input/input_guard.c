/* SPDX-License-Identifier: MIT */
/* input_guard.c - the SIGBUS guard for mapped inputs (see input.h).
 *
 * Owns: the process-wide SIGBUS handler, each thread's armed jump target,
 * the reader's state kept at its checkpoints (input_rollback_keeps), and
 * the way back after a fault (input_read_guarded).  A mapped file that
 * shrinks under a search raises SIGBUS in the thread that touches a
 * vanished page; the handler jumps back into input_read_guarded, which
 * has the reader go back to its last checkpoint (input_rollback) and the
 * input go on with read() from there (input_reread_from).  What may run
 * while armed: DESIGN.md, "What may run under the SIGBUS guard".
 */
#include "input.h"

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

void input_rollback_keeps(struct input_rollback *rb, void *state, size_t size)
{
	size_t used = 0;
	for (size_t i = 0; i < rb->n_pieces; i++)
		used += rb->piece[i].size;
	assert(rb->n_pieces < INPUT_ROLLBACK_PIECES && size <= INPUT_ROLLBACK_BYTES - used);
	rb->piece[rb->n_pieces].state = state;
	rb->piece[rb->n_pieces++].size = size;
}

/* Exchanges the reader's state with the copy kept at the checkpoint. */
static void swap_state(struct input_rollback *rb)
{
	unsigned char *kept = rb->copy, tmp[INPUT_ROLLBACK_BYTES];
	for (size_t i = 0; i < rb->n_pieces; i++) {
		size_t n = rb->piece[i].size;
		memcpy(tmp, rb->piece[i].state, n);
		memcpy(rb->piece[i].state, kept, n);
		memcpy(kept, tmp, n);
		kept += n;
	}
}

/* After a SIGBUS: the reader back at its checkpoint (its state put back,
 * and the rest by rb->back; refused, its state as the fault left it), the
 * input read on from there. */
static bool go_back(struct input *in, struct input_rollback *rb)
{
	if (!in->mapped)
		return false;
	swap_state(rb);
	if (!rb->back(rb->ctx)) {
		swap_state(rb);
		return false;
	}
	return input_reread_from(in, rb->at) == 0;
}

bool input_read_guarded(struct input *in, struct input_rollback *rb, void (*reader)(void *ctx),
			void *ctx)
{
	sigjmp_buf jb;
	/* after a jump that found the way back, the reader runs again */
	if (sigsetjmp(jb, 0) && !go_back(in, rb)) {
		input_guard_disarm();
		return false;
	}
	input_guard_arm(&jb);
	reader(ctx);
	input_guard_disarm();
	return true;
}
