/*
 * signal_view.c - see signal_view.h. Views are two bits per thread in TLS;
 * the real mask changes go through libc's pthread_sigmask directly, never
 * through the agent's interposer.
 */
#define _GNU_SOURCE
#include "signal_view.h"

#include "common/real_libc.h"

enum { UNBLOCKED_ROLE, BLOCKED_ROLE, ROLES };

static int owned[ROLES];                     /* signal of each role, 0: none */
static int forced[ROLES];                    /* 0 once released to the program */
static __thread unsigned view_bits __attribute__((tls_model("initial-exec")));

static void set_view(int role, int blocked)
{
    view_bits = blocked ? view_bits | 1u << role : view_bits & ~(1u << role);
}

static int view(int role)
{
    return (view_bits >> role) & 1;
}

static void apply(int signo, int block)
{
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signo);
    REAL(pthread_sigmask)(block ? SIG_BLOCK : SIG_UNBLOCK, &one, NULL);
}

static void own(int role, int signo)
{
    owned[role] = signo;
    forced[role] = 1;
    sigset_t current;
    REAL(pthread_sigmask)(SIG_BLOCK, NULL, &current);
    set_view(role, sigismember(&current, signo));
    apply(signo, role == BLOCKED_ROLE);
}

void signal_view_own_unblocked(int signo)
{
    own(UNBLOCKED_ROLE, signo);
}

void signal_view_own_blocked(int signo)
{
    own(BLOCKED_ROLE, signo);
}

void signal_view_release(int signo)
{
    for (int role = 0; role < ROLES; role++)
        if (owned[role] == signo && forced[role]) {
            forced[role] = 0;
            apply(signo, view(role));
        }
}

void signal_view_filter(int how, const sigset_t *set, sigset_t *actual)
{
    *actual = *set;
    for (int role = 0; role < ROLES; role++) {
        int signo = owned[role];
        if (!signo)
            continue;
        int mentioned = sigismember(set, signo);
        if (how == SIG_SETMASK)
            set_view(role, mentioned);
        else if (mentioned)
            set_view(role, how == SIG_BLOCK);
        if (!forced[role])
            continue;
        int keep_blocked = role == BLOCKED_ROLE;
        if (keep_blocked == (how != SIG_UNBLOCK))
            sigaddset(actual, signo);
        else
            sigdelset(actual, signo);
    }
}

void signal_view_filter_temporary(const sigset_t *mask, sigset_t *actual)
{
    *actual = *mask;
    for (int role = 0; role < ROLES; role++) {
        if (!owned[role] || !forced[role])
            continue;
        if (role == BLOCKED_ROLE)
            sigaddset(actual, owned[role]);
        else
            sigdelset(actual, owned[role]);
    }
}

void signal_view_present(sigset_t *old)
{
    for (int role = 0; role < ROLES; role++) {
        if (!owned[role])
            continue;
        if (view(role))
            sigaddset(old, owned[role]);
        else
            sigdelset(old, owned[role]);
    }
}

void signal_view_before_new_program(void)
{
    for (int role = 0; role < ROLES; role++)
        if (owned[role] && forced[role])
            apply(owned[role], view(role));
}

void signal_view_after_new_program(void)
{
    for (int role = 0; role < ROLES; role++)
        if (owned[role] && forced[role])
            apply(owned[role], role == BLOCKED_ROLE);
}

unsigned signal_view_get(void)
{
    return view_bits;
}

void signal_view_set(unsigned bits)
{
    view_bits = bits;
}

int signal_view_blocked(int signo)
{
    for (int role = 0; role < ROLES; role++)
        if (owned[role] == signo)
            return view(role);
    return 0;
}
