/*
 * cpu_time.h - the calling thread's CPU time, which the test programs burn
 * by: their work is measured in CPU time, so it is the same however many
 * cores they share.
 */
#ifndef STOKE_TESTS_CPU_TIME_H
#define STOKE_TESTS_CPU_TIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t thread_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

#endif
