/*
 * signal_view.h - the program's view of the signal mask for the two
 * signals the agent owns.
 *
 * The sampling signal is kept unblocked in every thread (a thread that
 * blocks all signals is still sampled, and a program reading signals from a
 * signalfd never receives stoke's); the heap dump signal is kept blocked in
 * the program's threads (see dump_signal.h). What the program asks for is
 * remembered per thread and is what sigprocmask and pthread_sigmask report,
 * and around exec, posix_spawn, system and popen the real mask is set to the
 * program's wish, so new programs start with the mask they would have had.
 */
#ifndef STOKE_AGENT_SIGNAL_VIEW_H
#define STOKE_AGENT_SIGNAL_VIEW_H

#include <signal.h>

/* The agent owns signo: kept unblocked (sampling) or blocked (dump). The
 * calling thread's current state becomes its view; the main thread at
 * start.
 * Context: program. */
void signal_view_own_unblocked(int signo);
void signal_view_own_blocked(int signo);

/* Stops forcing signo (the program took it over): the calling thread gets
 * the program's wish at once; views are still kept and reported.
 * Context: program. */
void signal_view_release(int signo);

/* For the sigprocmask/pthread_sigmask interposers: the mask to really set
 * for the program's request, and the program's view of an old mask.
 * Context: program. */
void signal_view_filter(int how, const sigset_t *set, sigset_t *actual);
void signal_view_present(sigset_t *old);

/* The same for a mask set only while a call waits (pselect, ppoll,
 * sigsuspend...): the views are not changed.
 * Context: program. */
void signal_view_filter_temporary(const sigset_t *mask, sigset_t *actual);

/* Around calls that start a new program from this thread.
 * Context: program. */
void signal_view_before_new_program(void);
void signal_view_after_new_program(void);

/* Thread creation: the new thread inherits its creator's views.
 * Context: program. */
unsigned signal_view_get(void);
void signal_view_set(unsigned view);

/* 1 when the program wants signo blocked in this thread.
 * Context: any. */
int signal_view_blocked(int signo);

#endif
