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

#include "signal_view.h"
#include "common/agent_signals.h"
#include "common/log.h"
#include "common/real_libc.h"

static struct {
    int signo;                  /* the signal set up at the start; 0: none */
    _Atomic int released;       /* the program took that one over */
    _Atomic int moved_to;       /* the signal snapshots moved to since, 0: none */
    _Atomic int moves;          /* how often they moved */
    _Atomic int published;      /* moves the trace names so far */
    _Atomic int requests;       /* snapshots asked for and not yet taken */
} dump;
static __thread int mask_fixed __attribute__((tls_model("initial-exec")));

#define MAX_MOVES 4

static void on_dump_signal(int signo, siginfo_t *info, void *context)
{
    atomic_fetch_add(&dump.requests, 1);
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

/* A real-time signal the program leaves alone (the sampler looks from the
 * bottom of the range up, this from the top down), with the agent's
 * handler on it; 0 when there is none. */
static int take_free_signal(void)
{
    for (int s = SIGRTMAX - 9; s >= SIGRTMIN + 8; s--)
        if (agent_signal_is_default(s) && !agent_install_handler(s, on_dump_signal))
            return s;
    return 0;
}

int dump_signal_setup(int signo)
{
    char name[64], other[64];
    if (!signo)
        return -1;
    int wanted = signo;
    if (!agent_signal_is_default(signo)) {
        signo = take_free_signal();
        if (!signo) {
            agent_log("the program already set an action for %s and no signal is free; heap "
                      "snapshots on a signal are off (use stoke_heap_dump())",
                      describe(wanted, name, sizeof name));
            return -1;
        }
        agent_log("the program already set an action for %s; heap snapshots are taken on %s "
                  "instead (stoke heap sends it)", describe(wanted, name, sizeof name),
                  describe(signo, other, sizeof other));
    } else if (agent_install_handler(signo, on_dump_signal)) {
        return -1;
    }
    dump.signo = signo;
    signal_view_own_blocked(signo);
    return 0;
}

int dump_signal_number(void)
{
    int moved = atomic_load(&dump.moved_to);
    return moved ? moved : atomic_load(&dump.released) ? 0 : dump.signo;
}

int dump_signal_thread_directed(void)
{
    return atomic_load(&dump.moved_to) != 0;
}

static void set_writer_mask(int how, int signo)
{
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signo);
    REAL(pthread_sigmask)(how, &one, NULL);
}

void dump_signal_receive_on_this_thread(void)
{
    if (dump.signo && !atomic_load(&dump.released))
        set_writer_mask(SIG_UNBLOCK, dump.signo);
}

int dump_signal_writer_check(void)
{
    static int writer_blocked, writer_moves, writer_signal;
    int changed = 0;
    if (!writer_blocked && atomic_load(&dump.released)) {
        set_writer_mask(SIG_BLOCK, dump.signo);
        writer_blocked = changed = 1;
    }
    int now = atomic_load(&dump.moves);
    if (now != writer_moves) { /* receive the signal snapshots moved to, only it */
        if (writer_signal)
            set_writer_mask(SIG_BLOCK, writer_signal);
        writer_signal = atomic_load(&dump.moved_to);
        if (writer_signal)
            set_writer_mask(SIG_UNBLOCK, writer_signal);
        writer_moves = now;
        changed = 1;
    }
    return changed;
}

void dump_signal_published(void)
{
    atomic_store(&dump.published, atomic_load(&dump.moves));
}

int dump_signal_is_published(void)
{
    return atomic_load(&dump.published) == atomic_load(&dump.moves);
}

int dump_signal_take_requests(void)
{
    return atomic_exchange(&dump.requests, 0);
}

/* The program took the signal snapshots were taken on: they move to a
 * free one, which stoke heap sends to the writer thread alone (the
 * program's threads were not started blocking it). */
static void move(int from)
{
    char name[64], other[64];
    int to = atomic_load(&dump.moves) < MAX_MOVES ? take_free_signal() : 0;
    atomic_store(&dump.moved_to, to);
    atomic_fetch_add(&dump.moves, 1);
    if (to)
        agent_log("the program set its own action for %s; heap snapshots are taken on %s from "
                  "now on (stoke heap sends it)", describe(from, name, sizeof name),
                  describe(to, other, sizeof other));
    else
        agent_log("the program set its own action for %s; stoke stops taking heap snapshots "
                  "on a signal (stoke_heap_dump() still works)",
                  describe(from, name, sizeof name));
}

int dump_signal_program_handles(int signo)
{
    if (signo && signo == atomic_load(&dump.moved_to)) {
        move(signo);
        return 1;
    }
    if (!dump.signo || signo != dump.signo || atomic_exchange(&dump.released, 1))
        return 0;
    signal_view_release(signo); /* this thread gets the program's wish back now */
    mask_fixed = 1;
    move(signo);
    return 1;
}

void dump_signal_fix_interrupted_mask(ucontext_t *uc)
{
    if (mask_fixed || !atomic_load_explicit(&dump.released, memory_order_relaxed))
        return;
    mask_fixed = 1;
    if (!signal_view_blocked(dump.signo))
        sigdelset(&uc->uc_sigmask, dump.signo);
}
