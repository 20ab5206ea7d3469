/*
 * heap_sharing.c - see heap_sharing.h.
 */
#define _GNU_SOURCE
#include "heap_sharing.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/procfs.h"
#include "common/sandbox.h"

_Atomic int heap_sharing_mode = HEAP_SHARED; /* until heap_start knows better */
_Atomic int heap_sharing_sole_inside;
__thread int heap_sharing_sole __attribute__((tls_model("initial-exec")));
static void (*on_switch)(void);

static int membarrier(int cmd)
{
    int saved = errno;
    int ret = (int)syscall(SYS_membarrier, cmd, 0, 0);
    errno = saved;
    return ret;
}

/* The threads of the process, or -1. Read only by one thread at a time:
 * at the start, in a fork child, and by the thread that makes the switch.
 * Not on the stack: the switch may run on a small thread stack. */
static int thread_count(void)
{
    static char status[4096];
    return procfs_status_number("Threads", status, sizeof status);
}

static int registered; /* for membarrier's private expedited barrier */

void heap_sharing_prepare(void)
{
    registered = !sandbox_check() && !membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
}

void heap_sharing_start(int agent_threads, void (*switching)(void))
{
    int alone = registered && thread_count() == agent_threads + 1 && !sandbox_check();
    on_switch = switching;
    heap_sharing_sole = alone;
    atomic_store(&heap_sharing_sole_inside, 0);
    atomic_store(&heap_sharing_mode, alone ? HEAP_ALONE : HEAP_SHARED);
    if (!alone && on_switch)
        on_switch(); /* a fork child of a thread that was alone: what it kept aside */
}

/* Every other running thread of the process passes a full barrier. Without
 * the call (a filter came since), a millisecond: far longer than any store
 * takes to leave a core's store buffer. */
static void barrier_everywhere(void)
{
    if (sandbox_check() || membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
        int saved = errno;
        struct timespec ms = {0, 1000000};
        while (nanosleep(&ms, &ms) && errno == EINTR)
            ;
        errno = saved;
    }
}

void heap_sharing_fork_child(void)
{
    atomic_store(&heap_sharing_sole_inside, 0);
    if (atomic_load(&heap_sharing_mode) == HEAP_ALONE)
        return;
    if (on_switch) /* a switch the parent was making, if any, ends here */
        on_switch();
    atomic_store(&heap_sharing_mode, HEAP_SHARED);
}

void heap_sharing_share(void)
{
    int expected = HEAP_ALONE;
    if (atomic_compare_exchange_strong(&heap_sharing_mode, &expected, HEAP_SWITCHING)) {
        barrier_everywhere();
        while (atomic_load_explicit(&heap_sharing_sole_inside, memory_order_acquire))
            sched_yield();
        if (on_switch)
            on_switch();
        atomic_store(&heap_sharing_mode, HEAP_SHARED);
        return;
    }
    while (atomic_load_explicit(&heap_sharing_mode, memory_order_acquire) != HEAP_SHARED)
        sched_yield(); /* another thread is switching */
}
