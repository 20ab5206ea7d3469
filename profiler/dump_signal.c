/*
 * dump_signal.c - see dump_signal.h. The handler only counts the request;
 * the writer thread takes the snapshot.
 */
#define _GNU_SOURCE
#include "dump_signal.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#include "agent.h"
#include "log.h"

static int dump_signo;                 /* 0: none */
static _Atomic int released;           /* the program took the signal over */
static _Atomic int requests;

/* The program's view of the dump signal in this thread's mask. */
static __thread int view_blocked __attribute__((tls_model("initial-exec")));
static __thread int mask_fixed __attribute__((tls_model("initial-exec")));

static int active(void)
{
    return dump_signo && !atomic_load_explicit(&released, memory_order_relaxed);
}

static void on_dump_signal(int signo, siginfo_t *info, void *context)
{
    atomic_fetch_add(&requests, 1);
}

/* libc's own pthread_sigmask, bypassing the agent's interposer. */
static int real_mask(int how, const sigset_t *set, sigset_t *old)
{
    static int (*real)(int, const sigset_t *, sigset_t *);
    if (!real)
        real = (int (*)(int, const sigset_t *, sigset_t *))dlsym(RTLD_NEXT, "pthread_sigmask");
    return real(how, set, old);
}

static void block_here(int block)
{
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, dump_signo);
    real_mask(block ? SIG_BLOCK : SIG_UNBLOCK, &one, NULL);
}

int dump_signal_setup(int signo)
{
    struct sigaction old;
    if (!signo || agent_sigaction(signo, NULL, &old))
        return -1;
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) {
        agent_log("the program handles signal %d (%s); heap snapshots on that signal are off "
                  "(use stoke record --heap-signal, or stoke_heap_dump())",
                  signo, strsignal(signo));
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_dump_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&sa.sa_mask);
    if (agent_sigaction(signo, &sa, NULL))
        return -1;
    sigset_t current;
    real_mask(SIG_BLOCK, NULL, &current);
    view_blocked = sigismember(&current, signo);
    dump_signo = signo;
    block_here(1);
    return 0;
}

void dump_signal_receive_on_this_thread(void)
{
    if (active())
        block_here(0);
}

int dump_signal_take_requests(void)
{
    return atomic_exchange(&requests, 0);
}

void dump_signal_filter(int how, const sigset_t *set, sigset_t *actual)
{
    *actual = *set;
    if (!active())
        return;
    int mentioned = sigismember(set, dump_signo);
    if (how == SIG_SETMASK)
        view_blocked = mentioned;
    else if (mentioned)
        view_blocked = how == SIG_BLOCK;
    if (how == SIG_UNBLOCK)
        sigdelset(actual, dump_signo);
    else
        sigaddset(actual, dump_signo);
}

void dump_signal_present(sigset_t *old)
{
    if (!active())
        return;
    if (view_blocked)
        sigaddset(old, dump_signo);
    else
        sigdelset(old, dump_signo);
}

void dump_signal_before_new_program(void)
{
    if (active() && !view_blocked)
        block_here(0);
}

void dump_signal_after_new_program(void)
{
    if (active() && !view_blocked)
        block_here(1);
}

int dump_signal_view(void)
{
    return view_blocked;
}

void dump_signal_set_view(int blocked)
{
    view_blocked = blocked;
}

void dump_signal_program_handles(int signo, int has_handler)
{
    if (!active() || signo != dump_signo || !has_handler)
        return;
    atomic_store(&released, 1);
    agent_log("the program now handles signal %d (%s); stoke stops taking heap snapshots "
              "on it (stoke_heap_dump() still works)", signo, strsignal(signo));
    if (!view_blocked)
        block_here(0);
    mask_fixed = 1;
}

void dump_signal_fix_interrupted_mask(ucontext_t *uc)
{
    if (!dump_signo || mask_fixed || !atomic_load_explicit(&released, memory_order_relaxed))
        return;
    mask_fixed = 1;
    if (!view_blocked)
        sigdelset(&uc->uc_sigmask, dump_signo);
}
