/*
 * exit_signals.h - the signals that end a program by their default
 * action: SIGINT, SIGTERM and SIGHUP (stoke record -P stops a server with
 * SIGINT; service managers with SIGTERM and SIGHUP).
 *
 * Where the program started with the default action for one of them, the
 * agent keeps a handler of its own on it for the whole run, and the
 * program's own actions go through it (sigaction is routed here): while
 * the program's action is the default, the signal first lets the agent
 * finish the trace (and write the exit heap snapshot), then the default
 * action is restored and the signal raised again, so the program still
 * ends by that signal; a handler of the program's is called as the kernel
 * would (SA_RESETHAND included, which node uses on SIGINT and SIGTERM); a
 * SIG_IGN of the program's is really set, so a new program inherits it. An
 * inherited SIG_IGN is left alone until the program sets another action
 * itself; from then on the agent keeps the signal the same way.
 */
#ifndef STOKE_AGENT_EXIT_SIGNALS_H
#define STOKE_AGENT_EXIT_SIGNALS_H

#include <signal.h>

/* At the start of the process. finish ends the trace; it runs in the
 * agent's handler, before the default action ends the process (bounded:
 * see agent.c).
 * Context: program. */
void exit_signals_install(void (*finish)(void));

/* The program's sigaction for one of these signals: 1 when signo is one
 * the agent keeps (then *ret is the result), 0 otherwise.
 * Context: program. */
int exit_signals_program_sigaction(int signo, const struct sigaction *sa, struct sigaction *old,
                                   int *ret);

#endif
