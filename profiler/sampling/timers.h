/*
 * timers.h - the sampling clocks: what makes each thread receive the
 * sampling signal at the requested rate.
 *
 * CPU time: one perf_event_open software task-clock event per thread whose
 * overflow signals that very thread (exact rate, user mode only, so a
 * signal never lands inside a syscall); where perf events are not allowed,
 * a POSIX per-thread CPU-clock timer (the kernel caps it at its tick rate);
 * setitimer(ITIMER_PROF) as the last resort. (Wall-clock mode uses the
 * same clocks for running threads; writer/blocked_sampler.c covers the others.)
 */
#ifndef STOKE_AGENT_TIMERS_H
#define STOKE_AGENT_TIMERS_H

#include <signal.h>
#include <stdint.h>

#include "threads.h"

/* Picks the engine for the whole process by trying them on the calling
 * thread, arms that thread, and returns the engine (enum stoke_engine), or
 * 0 when none works.
 * Context: program. */
int timers_setup(uint32_t hz, int signo, struct thread_state *t);

/* Arms one thread with the engine chosen by timers_setup.
 * Context: program. */
int timers_start(struct thread_state *t);

/* Disarms one thread's clock, from any thread (the handler stops its own
 * thread's when the program reads the signal itself).
 * Context: any. */
void timers_stop(struct thread_state *t);

/* Stops the process-wide clock (setitimer engine).
 * Context: program, writer. */
void timers_stop_process(void);

/* Called on each sample; finishes the randomized first period.
 * Context: handler. */
void timers_on_sample(struct thread_state *t);

/* Finishes the randomized first period now, so that no later sample makes
 * a system call for it (before a seccomp filter or strict mode), for any
 * thread's clock.
 * Context: program. */
void timers_settle(struct thread_state *t);

/* 1 when the signal came from stoke's sampling clocks.
 * Context: any. */
int timers_signal_is_ours(const siginfo_t *info);

/* fork child: drops the parent's timer handles without touching them.
 * Context: program. */
void timers_forget(struct thread_state *t);

/* The nominal ns one sample stands for, and a note for the user when the
 * engine cannot reach the requested rate (NULL otherwise).
 * Context: any. */
uint64_t timers_period_ns(void);
const char *timers_note(void);

#endif
