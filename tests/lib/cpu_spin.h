/*
 * cpu_spin.h - the one way the test programs burn CPU: a chain of
 * multiply/shift/xor steps run until the calling thread has used a given
 * amount of CPU time. Shares of CPU time are then exact by construction,
 * whatever the machine's speed or load. Never sleeps, allocates or prints.
 */
#ifndef E2E_CPU_SPIN_H
#define E2E_CPU_SPIN_H

#include <stdint.h>
#include <time.h>

/* Steps between two reads of the CPU clock (~30 us): the clock costs ~2%
 * and a budget is overrun by at most one batch. */
#define SPIN_STEPS_PER_CHECK 16384

static inline uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Mixes x for ms milliseconds of the calling thread's CPU time and returns
 * it. Always inlined, so the time is spent inside the calling function. */
static inline __attribute__((always_inline)) uint64_t spin_cpu_ms(uint64_t x, unsigned ms)
{
    uint64_t deadline = thread_cpu_ns() + ms * 1000000ull;
    do {
        for (int i = 0; i < SPIN_STEPS_PER_CHECK; i++)
            x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
    } while (thread_cpu_ns() < deadline);
    return x;
}

#endif
