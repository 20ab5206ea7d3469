/*
 * heap_sharing.h - whether other threads may be in the heap tables.
 *
 * While only one thread of the program can be inside the malloc hooks, the
 * live table and the stacks' counts are updated without locks or atomic
 * read-modify-writes: a locked instruction costs as much as the rest of a
 * tracked allocation. (The writer thread only ever reads them.)
 *
 * The thread that starts heap tracking in a process with no other thread
 * of the program is the sole thread, and the mode is ALONE. The sole
 * thread marks its work in the tables with heap_sharing_enter/leave: two
 * plain stores and a look at the mode. Any other thread that reaches the
 * tables, and any thread about to start one, first switches the mode to
 * SHARED for good: it
 * announces the switch, makes every thread pass a memory barrier
 * (membarrier), so that the sole thread either sees the switch or has its
 * mark visible, waits for the mark to clear, and has what the sole thread
 * kept aside (heap_live.h's nursery) moved into the shared tables.
 */
#ifndef STOKE_AGENT_HEAP_SHARING_H
#define STOKE_AGENT_HEAP_SHARING_H

#include <stdatomic.h>
#include <stdint.h>

enum { HEAP_ALONE, HEAP_SWITCHING, HEAP_SHARED };

extern _Atomic int heap_sharing_mode;
extern _Atomic int heap_sharing_sole_inside;
extern __thread int heap_sharing_sole __attribute__((tls_model("initial-exec")));

/* Registers the process for membarrier, while it still has one thread (at
 * the start and in a fork child, before the agent starts its own): then
 * the kernel answers at once, where with two threads it waits for every
 * CPU to pass a grace period (about 10 ms, at every process start). Not
 * under a seccomp filter (a system call the program may not be allowed).
 * Context: program. */
void heap_sharing_prepare(void);

/* In a process that never shared its tables (at the start, and in a fork
 * child): the caller becomes the sole thread when the process has no
 * other threads than it and agent_threads of the agent's own, and
 * heap_sharing_prepare registered it; else the tables are shared.
 * switching runs once, during the switch, while no other thread uses the
 * tables.
 * Context: program. */
void heap_sharing_start(int agent_threads, void (*switching)(void));

/* In a fork child (one thread): a switch the parent was making is ended
 * here, as no thread of the child would finish it; heap_sharing_start then
 * decides again.
 * Context: program. */
void heap_sharing_fork_child(void);

/* Switches to SHARED for good (waits for the sole thread to step out). The
 * caller must keep its signal handlers out of the hooks meanwhile (heap.c's
 * heap_threads_coming).
 * Context: hooks, program. */
void heap_sharing_share(void);

/* 1 when the tables need their locks and atomic adds.
 * Context: any. */
static inline int heap_shared(void)
{
    return atomic_load_explicit(&heap_sharing_mode, memory_order_relaxed) != HEAP_ALONE;
}

/* Around every use of the tables by the hooks. Returns 1 when the caller
 * works alone until heap_sharing_leave (even should another thread start
 * switching meanwhile: it waits), 0 when the tables are shared. The mark
 * comes before the look at the mode; a switch's barrier orders them.
 * Context: hooks. */
static inline int heap_sharing_enter(void)
{
    if (heap_sharing_sole) {
        atomic_store_explicit(&heap_sharing_sole_inside, 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
        if (atomic_load_explicit(&heap_sharing_mode, memory_order_relaxed) == HEAP_ALONE)
            return 1;
        atomic_store_explicit(&heap_sharing_sole_inside, 0, memory_order_release);
    }
    if (atomic_load_explicit(&heap_sharing_mode, memory_order_acquire) != HEAP_SHARED)
        heap_sharing_share();
    return 0;
}

/* Context: hooks. */
static inline void heap_sharing_leave(void)
{
    if (heap_sharing_sole)
        atomic_store_explicit(&heap_sharing_sole_inside, 0, memory_order_release);
}

/* Adds v to a counter that other threads only read unless shared (the
 * caller looked at heap_shared once for all its counters).
 * Context: hooks. */
static inline void heap_counter_add(_Atomic int64_t *counter, int64_t v, int shared)
{
    if (shared)
        atomic_fetch_add_explicit(counter, v, memory_order_relaxed);
    else
        atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + v,
                              memory_order_relaxed);
}

#endif
