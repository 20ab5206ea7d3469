/*
 * exit_signals.c - see exit_signals.h. The real action is always the
 * agent's handler, installed with the program's own flags and mask when
 * the program has a handler (SA_RESETHAND taken out and done here), or
 * SIG_IGN when the program ignores the signal.
 */
#define _GNU_SOURCE
#include "exit_signals.h"

#include <stdatomic.h>
#include <string.h>

#include "program_action.h"
#include "common/agent_signals.h"
#include "common/real_libc.h"

static const int exit_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define EXIT_SIGNALS (sizeof exit_signals / sizeof exit_signals[0])

static struct program_action program[EXIT_SIGNALS];
static int kept[EXIT_SIGNALS]; /* the agent keeps its handler on it */
static void (*finish_trace)(void);
static _Atomic int ending;     /* a default action is being carried out */

static int index_of(int signo)
{
    for (unsigned i = 0; i < EXIT_SIGNALS; i++)
        if (exit_signals[i] == signo)
            return (int)i;
    return -1;
}

/* The default action, after the trace is finished: the program ends by
 * the signal as it would have. */
static void end_by_default(int signo)
{
    if (atomic_exchange(&ending, 1))
        return; /* another thread is ending the process already */
    if (finish_trace)
        finish_trace();
    agent_signal_raise_default(signo);
    atomic_store(&ending, 0); /* not reached unless the signal is held elsewhere */
}

static void apply(int signo, const struct sigaction *a);

static void on_exit_signal(int signo, siginfo_t *info, void *context)
{
    int i = index_of(signo);
    const struct sigaction *a = program_action_get(&program[i]);
    if (program_action_is(a, SIG_DFL)) {
        end_by_default(signo);
    } else if (!program_action_is(a, SIG_IGN)) {
        struct sigaction handler = *a;
        if (handler.sa_flags & SA_RESETHAND) { /* the kernel would have reset it on entry */
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            program_action_set(&program[i], &dfl, NULL);
            apply(signo, &dfl);
        }
        program_action_call(&handler, signo, info, context);
    }
}

/* Makes the real action follow the program's action a. */
static void apply(int signo, const struct sigaction *a)
{
    if (program_action_is(a, SIG_IGN)) {
        REAL(sigaction)(signo, a, NULL);
    } else if (program_action_is(a, SIG_DFL)) {
        agent_install_handler(signo, on_exit_signal);
    } else {
        struct sigaction real = *a;
        real.sa_sigaction = on_exit_signal;
        real.sa_flags = (a->sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
        REAL(sigaction)(signo, &real, NULL);
    }
}

void exit_signals_install(void (*finish)(void))
{
    finish_trace = finish;
    for (unsigned i = 0; i < EXIT_SIGNALS; i++)
        if (agent_signal_is_default(exit_signals[i]) &&
            !agent_install_handler(exit_signals[i], on_exit_signal))
            kept[i] = 1;
}

/* A signal the program did not start with at its default action (a shell
 * starts a background job with SIGINT ignored) is kept from the moment
 * the program sets an action other than SIG_IGN (node sets the default,
 * then its own handler): from then on the agent keeps it as if at the
 * start, the action before (the inherited one) as the program's. */
static int take_over(int i, const struct sigaction *sa)
{
    struct sigaction inherited;
    if (!finish_trace || !sa || program_action_is(sa, SIG_IGN) ||
        REAL(sigaction)(exit_signals[i], NULL, &inherited))
        return 0;
    program_action_set(&program[i], &inherited, NULL);
    kept[i] = 1;
    return 1;
}

int exit_signals_program_sigaction(int signo, const struct sigaction *sa, struct sigaction *old,
                                   int *ret)
{
    int i = index_of(signo);
    if (i < 0 || !(kept[i] || take_over(i, sa)))
        return 0;
    program_action_set(&program[i], sa, old);
    if (sa)
        apply(signo, sa);
    *ret = 0;
    return 1;
}
