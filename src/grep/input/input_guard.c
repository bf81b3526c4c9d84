/* SPDX-License-Identifier: MIT */
/* input_guard.c - the SIGBUS guard for mapped inputs (see input.h).
 *
 * Owns: the process-wide SIGBUS handler, each thread's armed jump target,
 * and the way back after a fault (input_read_guarded).  A mapped file that
 * shrinks under a search raises SIGBUS in the thread that touches a
 * vanished page; the handler jumps back into input_read_guarded, which
 * has the reader go back to its last checkpoint (input_rollback) and the
 * input go on with read() from there (input_reread_from).  What may run
 * while armed: DESIGN.md, "What may run under the SIGBUS guard".
 */
#include "input.h"

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

/* After a SIGBUS: the reader back at its checkpoint, the input read on
 * from there. */
static bool go_back(struct input *in, const struct input_rollback *rb)
{
	return in->mapped && rb->back(rb->ctx) && input_reread_from(in, rb->at) == 0;
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
