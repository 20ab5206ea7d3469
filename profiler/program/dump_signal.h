/*
 * dump_signal.h - the heap snapshot signal (SIGUSR2 unless chosen
 * otherwise), received on the agent's writer thread only.
 *
 * A process-directed signal goes to any thread that does not block it, and
 * a handler running in a thread blocked in poll, nanosleep or epoll_wait
 * makes that call fail with EINTR. So the signal stays blocked in the
 * program's threads (signal_view.h keeps the program's own view of its
 * mask) and only the writer thread receives it. If the program handles
 * the signal already at the start, a free real-time signal serves
 * instead. If the program installs its own handler later (node's heapdump
 * module does for SIGUSR2), stoke gives the signal back and moves to a
 * free real-time signal, which the program's threads do not block: it is
 * sent to the writer thread alone (HEAP_SIGNAL records name the thread).
 */
#ifndef STOKE_AGENT_DUMP_SIGNAL_H
#define STOKE_AGENT_DUMP_SIGNAL_H

#include <ucontext.h>

/* Takes over signo (0: none) for snapshots. Returns 0, or -1 when the
 * program already handles it (the user is told). Main thread, at start.
 * Context: program. */
int dump_signal_setup(int signo);

/* The signal snapshots are taken on now, 0 when none.
 * Context: program, writer. */
int dump_signal_number(void);

/* 1 when that signal must be sent to the writer thread, not the process.
 * Context: writer. */
int dump_signal_thread_directed(void);

/* The writer thread calls this to receive the signal.
 * Context: writer. */
void dump_signal_receive_on_this_thread(void);

/* The writer, each cycle: once the program took a signal over, the writer
 * stops receiving it, so the program's handler runs on its own threads,
 * and receives the one snapshots moved to. Returns 1 when the signal
 * changed (stoke heap must be told).
 * Context: writer. */
int dump_signal_writer_check(void);

/* The writer, once the trace names the signal of the last change (its
 * HEAP_SIGNAL record is flushed).
 * Context: writer. */
void dump_signal_published(void);

/* 1 when the trace names the signal snapshots are taken on now.
 * Context: any. */
int dump_signal_is_published(void);

/* Number of snapshot requests received since the last call.
 * Context: writer. */
int dump_signal_take_requests(void);

/* The program set a disposition for signo: if it is the dump signal, stoke
 * gives it up (the signal is unblocked again where the program wants) and
 * moves to another. Returns 1 when it moved (writer_await_heap_signal
 * then keeps stoke heap from sending the old one), else 0.
 * Context: program. */
int dump_signal_program_handles(int signo);

/* Once the signal was given up, restores the program's wish in the
 * interrupted thread's mask (applied when the handler returns).
 * Context: handler. */
void dump_signal_fix_interrupted_mask(ucontext_t *uc);

#endif
