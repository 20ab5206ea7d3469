/*
 * dump_signal.c - see dump_signal.h. The handler only counts the request;
 * the writer thread takes the snapshot.
 */
#define _GNU_SOURCE
#include "dump_signal.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "log.h"
#include "signal_view.h"

static int dump_signo;          /* 0: none */
static _Atomic int released;    /* the program took the signal over */
static _Atomic int requests;
static __thread int mask_fixed __attribute__((tls_model("initial-exec")));

static void on_dump_signal(int signo, siginfo_t *info, void *context)
{
    atomic_fetch_add(&requests, 1);
}

/* "SIGUSR2 (User defined signal 2)", or "signal 34" for a real-time one
 * (whose description strsignal would allocate: this may run in a handler). */
static const char *describe(int signo, char *out, size_t cap)
{
    const char *abbrev = sigabbrev_np(signo);
    if (abbrev)
        snprintf(out, cap, "SIG%s (%s)", abbrev, sigdescr_np(signo));
    else
        snprintf(out, cap, "signal %d", signo);
    return out;
}

int dump_signal_setup(int signo)
{
    char name[64];
    if (!signo)
        return -1;
    if (!agent_signal_is_default(signo)) {
        agent_log("the program already set an action for %s; heap snapshots on that signal "
                  "are off (use stoke record --heap-signal, or stoke_heap_dump())",
                  describe(signo, name, sizeof name));
        return -1;
    }
    if (agent_install_handler(signo, on_dump_signal))
        return -1;
    dump_signo = signo;
    signal_view_own_blocked(signo);
    return 0;
}

int dump_signal_number(void)
{
    return atomic_load(&released) ? 0 : dump_signo;
}

void dump_signal_receive_on_this_thread(void)
{
    if (!dump_signo || atomic_load(&released))
        return;
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, dump_signo);
    signal_real_mask(SIG_UNBLOCK, &one, NULL);
}

int dump_signal_writer_check(void)
{
    static int writer_blocked;
    if (writer_blocked || !atomic_load(&released))
        return 0;
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, dump_signo);
    signal_real_mask(SIG_BLOCK, &one, NULL);
    writer_blocked = 1;
    return 1;
}

int dump_signal_take_requests(void)
{
    return atomic_exchange(&requests, 0);
}

void dump_signal_program_handles(int signo)
{
    if (!dump_signo || signo != dump_signo || atomic_exchange(&released, 1))
        return;
    char name[64];
    agent_log("the program set its own action for %s; stoke stops taking heap snapshots on it "
              "(stoke_heap_dump() still works)", describe(signo, name, sizeof name));
    signal_view_release(signo); /* this thread gets the program's wish back now */
    mask_fixed = 1;
}

void dump_signal_fix_interrupted_mask(ucontext_t *uc)
{
    if (mask_fixed || !atomic_load_explicit(&released, memory_order_relaxed))
        return;
    mask_fixed = 1;
    if (!signal_view_blocked(dump_signo))
        sigdelset(&uc->uc_sigmask, dump_signo);
}
