/*
 * agent_signals.c - the agent's own signal handlers (see agent_signals.h).
 * Every call goes to libc past the agent's interposers (real_libc.h).
 * Must never: change the disposition or mask of a signal that is not the
 * caller's to change.
 */
#define _GNU_SOURCE
#include "agent_signals.h"

#include <string.h>

#include "real_libc.h"

int agent_signal_is_default(int signo)
{
    struct sigaction old;
    if (REAL(sigaction)(signo, NULL, &old))
        return 0;
    return !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL;
}

int agent_install_handler(int signo, void (*handler)(int, siginfo_t *, void *))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    return REAL(sigaction)(signo, &sa, NULL);
}

void agent_signal_raise_default(int signo)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    REAL(sigaction)(signo, &dfl, NULL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signo);
    REAL(pthread_sigmask)(SIG_UNBLOCK, &one, NULL);
    raise(signo);
}
