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

#include "heap_live.h"

_Atomic int heap_sharing_mode = HEAP_SHARED; /* until heap_start knows better */
_Atomic int heap_sharing_sole_inside;
__thread int heap_sharing_sole __attribute__((tls_model("initial-exec")));

static int membarrier(int cmd)
{
    int saved = errno;
    int ret = (int)syscall(SYS_membarrier, cmd, 0, 0);
    errno = saved;
    return ret;
}

void heap_sharing_start(int alone)
{
    alone = alone && !membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
    heap_sharing_sole = alone;
    atomic_store(&heap_sharing_sole_inside, 0);
    atomic_store(&heap_sharing_mode, alone ? HEAP_ALONE : HEAP_SHARED);
}

/* Every other running thread of the process passes a full barrier. Should
 * the call fail, a millisecond is far longer than any store takes to
 * leave a core's store buffer. */
static void barrier_everywhere(void)
{
    if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

void heap_sharing_share(void)
{
    int expected = HEAP_ALONE;
    if (atomic_compare_exchange_strong(&heap_sharing_mode, &expected, HEAP_SWITCHING)) {
        barrier_everywhere();
        while (atomic_load_explicit(&heap_sharing_sole_inside, memory_order_acquire))
            sched_yield();
        heap_live_nursery_flush();
        atomic_store(&heap_sharing_mode, HEAP_SHARED);
        return;
    }
    while (atomic_load_explicit(&heap_sharing_mode, memory_order_acquire) != HEAP_SHARED)
        sched_yield(); /* another thread is switching */
}
