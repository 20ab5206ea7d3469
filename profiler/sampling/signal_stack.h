/*
 * signal_stack.h - the agent's own stack in each sampled thread.
 *
 * The agent's work inside a program's thread (a sample's unwind in the
 * signal handler, an allocation hook's unwind) never runs on the program's
 * stack: goroutine stacks are 2 KiB and thread stacks may be 32 KiB, while
 * an unwind needs about 11 KiB. Each sampled thread gets a stack of the
 * agent's, which is also its alternate signal stack when the program set
 * none (the handlers are installed with SA_ONSTACK, so the kernel's signal
 * frame lands there too). Where the program set its own (the Go runtime
 * does, per thread), the kernel uses the program's, and the agent moves to
 * its own stack before it unwinds.
 *
 * The program's view of sigaltstack stays as it would be: a thread where
 * only the agent's stack is set reports none (program/interpose.c routes the
 * program's sigaltstack calls here).
 */
#ifndef STOKE_AGENT_SIGNAL_STACK_H
#define STOKE_AGENT_SIGNAL_STACK_H

#include <signal.h>

#include "threads.h"

/* Maps the calling thread's stack into t and installs it as the thread's
 * alternate signal stack unless the program set one. Returns 0, or -1
 * (then the agent's work runs on the program's stack, as it must).
 * Context: program. */
int signal_stack_create(struct thread_state *t);

/* Uninstalls and unmaps the calling thread's agent stack, once its
 * sampling clock is stopped.
 * Context: program. */
void signal_stack_destroy(struct thread_state *t);

/* Unmaps the agent stack of another thread: one that vanished, or one a
 * fork did not copy.
 * Context: writer, program. */
void signal_stack_forget(struct thread_state *t);

/* Runs fn(arg) on the agent's stack of the calling thread: where it is,
 * when already on it, else from its top, or from below interrupted_sp when
 * the code a signal interrupted was itself running on it (pass 0 outside
 * signal handlers). Runs fn on the current stack when t has none.
 * Context: handler, hooks. */
void signal_stack_run(struct thread_state *t, void (*fn)(void *), void *arg,
                      uintptr_t interrupted_sp);

/* sigaltstack as the program sees it (see above): what the program's call
 * does and returns, errno included. t: the calling thread's state, or
 * NULL (then the call is the kernel's own).
 * Context: program. */
int signal_stack_program_call(const struct thread_state *t, const stack_t *ss, stack_t *old);

#endif
