/*
 * sampler.h - the sampling signal handler: on each tick of a thread's
 * clock it unwinds that thread's stack into the thread's ring.
 */
#ifndef STOKE_AGENT_SAMPLER_H
#define STOKE_AGENT_SAMPLER_H

#include <signal.h>

/* Installs the handler for a free signal: SIGPROF unless the program already
 * handles it, else a free real-time signal. Returns the signal, or -1.
 * Context: program. */
int sampler_install(void);

/* Turns sampling on or off for the whole process; returns the old state.
 * Context: any. */
int sampler_set_active(int on);

/* The program's sigaction for the sampling signal: stoke's handler stays
 * installed, the program's disposition is remembered, reported back, and
 * applied to the signals that are not stoke's (from kill, or the program's
 * own timers). Returns 1 when signo is the sampling signal (then *ret is
 * the result), 0 otherwise.
 * Context: program. */
int sampler_program_sigaction(int signo, const struct sigaction *sa, struct sigaction *old,
                              int *ret);

/* 1 when a signal the program's sigwait-family call received is one of
 * the agent's samples (pending because the program blocked every signal
 * with the raw system call): the call must wait on instead.
 * Context: program. */
int sampler_signal_is_a_sample(int signo, const siginfo_t *info);

/* Around a call that starts a new program (exec, posix_spawn, system,
 * popen): a program that ignores the sampling signal passes SIG_IGN on to
 * the new program, as it would without stoke, so the signal is really
 * ignored meanwhile (its samples are lost); the handler comes back after.
 * Context: program. */
void sampler_before_new_program(void);
void sampler_after_new_program(void);

#endif
