/*
 * dump_signal.h - the heap snapshot signal (SIGUSR2 unless chosen
 * otherwise), received on the agent's writer thread only.
 *
 * A process-directed signal goes to any thread that does not block it, and
 * a handler running in a thread blocked in poll, nanosleep or epoll_wait
 * makes that call fail with EINTR. So the signal stays blocked in the
 * program's threads (signal_view.h keeps the program's own view of its
 * mask) and only the writer thread receives it. If the program installs
 * its own handler for the signal, stoke gives the signal back.
 */
#ifndef STOKE_AGENT_DUMP_SIGNAL_H
#define STOKE_AGENT_DUMP_SIGNAL_H

#include <ucontext.h>

/* Takes over signo (0: none) for snapshots. Returns 0, or -1 when the
 * program already handles it (the user is told). Main thread, at start. */
int dump_signal_setup(int signo);

/* The signal snapshots are taken on: the one set up, 0 when none (or the
 * program took it over). */
int dump_signal_number(void);

/* The writer thread calls this to receive the signal. */
void dump_signal_receive_on_this_thread(void);

/* The writer, each cycle: once the program took the signal over, the
 * writer stops receiving it, so the program's handler runs on its own
 * threads. Returns 1 the first time it finds the signal taken over. */
int dump_signal_writer_check(void);

/* Number of snapshot requests received since the last call. */
int dump_signal_take_requests(void);

/* The program set a disposition for signo: if it is the dump signal, stoke
 * gives it up (the signal is unblocked again where the program wants). */
void dump_signal_program_handles(int signo);

/* Sampling handler: once the signal was given up, restore the program's
 * wish in the interrupted thread's mask (applied when the handler returns). */
void dump_signal_fix_interrupted_mask(ucontext_t *uc);

#endif
