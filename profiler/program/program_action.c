/*
 * program_action.c - see program_action.h.
 */
#include "program_action.h"

const struct sigaction *program_action_get(const struct program_action *p)
{
    return &p->actions[atomic_load(&p->current)];
}

void program_action_set(struct program_action *p, const struct sigaction *sa,
                        struct sigaction *old)
{
    int current = atomic_load(&p->current);
    if (old)
        *old = p->actions[current];
    if (sa) {
        p->actions[!current] = *sa;
        atomic_store(&p->current, !current);
    }
}

int program_action_is(const struct sigaction *a, __sighandler_t handler)
{
    return !(a->sa_flags & SA_SIGINFO) && a->sa_handler == handler;
}

void program_action_call(const struct sigaction *a, int signo, siginfo_t *info, void *context)
{
    if (a->sa_flags & SA_SIGINFO)
        a->sa_sigaction(signo, info, context);
    else
        a->sa_handler(signo);
}
