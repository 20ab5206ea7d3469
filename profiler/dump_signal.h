/*
 * dump_signal.h - the heap snapshot signal (SIGUSR2 unless chosen
 * otherwise), received on the agent's writer thread only.
 *
 * A process-directed signal goes to any thread that does not block it, and
 * a handler running in a thread blocked in poll, nanosleep or epoll_wait
 * makes that call fail with EINTR. So the agent blocks the signal in the
 * program's threads and unblocks it on its writer thread alone. The
 * program never sees the difference: sigprocmask and pthread_sigmask
 * report (and keep) the program's own wish for that signal, and around
 * exec, posix_spawn, system and popen the program's mask is put back so
 * new programs start with the mask they would have had. If the program
 * installs its own handler for the signal, stoke gives the signal up.
 */
#ifndef STOKE_AGENT_DUMP_SIGNAL_H
#define STOKE_AGENT_DUMP_SIGNAL_H

#include <signal.h>
#include <ucontext.h>

/* Takes over signo (0: none) for snapshots. Returns 0, or -1 when the
 * program already handles it (the user is told). Main thread, at start. */
int dump_signal_setup(int signo);

/* The writer thread calls this to receive the signal. */
void dump_signal_receive_on_this_thread(void);

/* Number of snapshot requests received since the last call. */
int dump_signal_take_requests(void);

/* Filters a mask the program asks for: the dump signal stays blocked and
 * the program's wish is remembered; old_out (if any) shows the program's
 * view. Used by the sigprocmask/pthread_sigmask interposers. */
void dump_signal_filter(int how, const sigset_t *set, sigset_t *actual);
void dump_signal_present(sigset_t *old);

/* Around calls that start a new program from this thread. */
void dump_signal_before_new_program(void);
void dump_signal_after_new_program(void);

/* A thread is created: the new thread inherits its creator's view. */
int dump_signal_view(void);
void dump_signal_set_view(int blocked);

/* The program installs a handler for signo: if it is the dump signal,
 * stoke gives it up. */
void dump_signal_program_handles(int signo, int has_handler);

/* Sampling handler: when the signal was given up, unblock it in the
 * interrupted thread's mask if the program wants it unblocked. */
void dump_signal_fix_interrupted_mask(ucontext_t *uc);

#endif
