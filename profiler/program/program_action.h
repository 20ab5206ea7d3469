/*
 * program_action.h - the program's own action for a signal on which the
 * agent keeps a handler of its own: what the program last set with
 * sigaction, reported back to it and applied by the agent's handler to
 * the signals that are the program's. Double-buffered, so a handler always
 * reads a whole one while the program sets another.
 */
#ifndef STOKE_AGENT_PROGRAM_ACTION_H
#define STOKE_AGENT_PROGRAM_ACTION_H

#include <signal.h>
#include <stdatomic.h>

struct program_action {
    struct sigaction actions[2];
    _Atomic int current;
};

/* The action now (SIG_DFL until set).
 * Context: any. */
const struct sigaction *program_action_get(const struct program_action *p);

/* As sigaction does: *old gets the action before, sa (if not NULL) becomes
 * the action (in a handler: SA_RESETHAND done by hand).
 * Context: program, handler. */
void program_action_set(struct program_action *p, const struct sigaction *sa,
                        struct sigaction *old);

/* 1 when the action is handler, SIG_DFL or SIG_IGN (no SA_SIGINFO).
 * Context: any. */
int program_action_is(const struct sigaction *a, __sighandler_t handler);

/* Calls the program's handler of a as the kernel would have (a must be
 * neither SIG_DFL nor SIG_IGN).
 * Context: handler. */
void program_action_call(const struct sigaction *a, int signo, siginfo_t *info, void *context);

#endif
