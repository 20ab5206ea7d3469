/*
 * hog.c - starves every other thread of its CPU: HOGS threads, realtime
 * (SCHED_FIFO) where the system allows it, each burn HOG_MS of CPU in
 * hog_cpu one after another. Run pinned to one CPU (taskset -c 0), a
 * profiler's writer thread in the same process gets no time meanwhile, so
 * its buffers fill. Prints what it did on stdout, and on stderr whether
 * realtime scheduling was allowed.
 *
 * usage: hog
 * Never reads input or writes files.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cpu_time.h"

#define HOGS 3
#define HOG_MS 200

static volatile uint64_t sink;

static __attribute__((noipa)) void *hog_cpu(void *seed)
{
    uint64_t x = (uintptr_t)seed, end = thread_cpu_ms() + HOG_MS;
    while (thread_cpu_ms() < end)
        for (int i = 0; i < 10000; i++)
            x = (x * 6364136223846793005ull + 1) ^ (x >> 31);
    sink = x;
    return NULL;
}

int main(void)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    struct sched_param realtime = {.sched_priority = 1};
    pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
    pthread_attr_setschedparam(&attr, &realtime);
    pthread_t threads[HOGS];
    int realtime_allowed = 1;
    for (int i = 0; i < HOGS; i++)
        if (pthread_create(&threads[i], &attr, hog_cpu, (void *)(uintptr_t)(i + 1))) {
            realtime_allowed = 0;
            pthread_create(&threads[i], NULL, hog_cpu, (void *)(uintptr_t)(i + 1));
        }
    for (int i = 0; i < HOGS; i++)
        pthread_join(threads[i], NULL);
    printf("hog: %d threads burned %d ms each\n", HOGS, HOG_MS);
    fprintf(stderr, "hog: realtime scheduling %s\n", realtime_allowed ? "allowed" : "refused");
    return 0;
}
