/*
 * spinlock.h - the short lock of the heap tables, which the malloc hooks
 * take on every tracked allocation and free. One atomic exchange to take
 * it, a plain release store to give it back (a mutex costs two atomic
 * operations and a function call each way). A waiter spins briefly, then
 * yields the CPU, so a holder that was preempted gets to finish.
 */
#ifndef STOKE_AGENT_SPINLOCK_H
#define STOKE_AGENT_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>

#define SPINLOCK_SPINS 128

struct spinlock {
    _Atomic int held;
};

/* Waits until the lock looks free.
 * Context: hooks. */
static inline void spinlock_wait(struct spinlock *l)
{
    for (int spins = 0; atomic_load_explicit(&l->held, memory_order_relaxed); spins++) {
        if (spins < SPINLOCK_SPINS)
            __builtin_ia32_pause();
        else
            sched_yield();
    }
}

/* Takes the lock.
 * Context: hooks. */
static inline void spinlock_lock(struct spinlock *l)
{
    while (atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
        spinlock_wait(l);
}

/* Gives it back.
 * Context: hooks. */
static inline void spinlock_unlock(struct spinlock *l)
{
    atomic_store_explicit(&l->held, 0, memory_order_release);
}

/* After fork, in the child: whoever held it is gone.
 * Context: program. */
static inline void spinlock_reset(struct spinlock *l)
{
    atomic_store_explicit(&l->held, 0, memory_order_relaxed);
}

#endif
