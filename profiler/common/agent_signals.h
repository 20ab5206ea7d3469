/*
 * agent_signals.h - the agent's own signal handlers (the sampling signal,
 * the heap snapshot signal, the exit signals), installed with libc's
 * sigaction past the agent's interposer, which keeps the program's own
 * actions for those signals apart (program/interpose.c).
 */
#ifndef STOKE_AGENT_AGENT_SIGNALS_H
#define STOKE_AGENT_AGENT_SIGNALS_H

#include <signal.h>

/* 1 when signo has its default disposition (nobody handles it).
 * Context: program. */
int agent_signal_is_default(int signo);

/* Installs one of the agent's handlers: SA_SIGINFO | SA_RESTART |
 * SA_ONSTACK (never on a small program stack), every signal blocked while
 * it runs. Returns 0 or -1.
 * Context: program, handler. */
int agent_install_handler(int signo, void (*handler)(int, siginfo_t *, void *));

/* Carries out the default action of signo in the calling thread: the
 * disposition goes back to SIG_DFL, signo is unblocked here and raised, so
 * the process ends by it as it would have without stoke.
 * Context: handler. */
void agent_signal_raise_default(int signo);

#endif
