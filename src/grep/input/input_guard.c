/* input_guard.c - the SIGBUS guard for mapped inputs (see input.h).
 *
 * Owns: the process-wide SIGBUS handler and each thread's armed jump
 * target.  A mapped file that shrinks under a search raises SIGBUS in the
 * thread that touches a vanished page; the handler jumps back to that
 * thread's search (search.c), which goes on with read() from its last
 * complete line (input_reread_from).  What may run while armed:
 * DESIGN.md, "What may run under the SIGBUS guard".
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
