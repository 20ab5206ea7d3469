/*
 * sleeper.c - one thread on CPU, one asleep: busy_main spins MS ms of CPU
 * time while a second thread waits in sleepy_wait, alternating nanosleep
 * and poll (calls a signal would cut short with EINTR, SA_RESTART or not),
 * until the spinning is done. Prints how many sleeps were interrupted:
 * "sleeper: EINTR none" when none were; and on stderr the CPU time each
 * thread used ("sleeper: CPU us: waiting W spinning S"): waking 200 times
 * a second costs the waiting thread a little.
 *
 * usage: sleeper MS
 * Never reads input or writes files.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cpu_spin.h"

#define NAP_MS 5

static atomic_int spinning_done;
static volatile uint64_t sink;

struct interruptions {
    unsigned nanosleep_eintr;
    unsigned poll_eintr;
    uint64_t cpu_us; /* the waiting thread's CPU time */
};

static uint64_t thread_cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static __attribute__((noipa)) void *sleepy_wait(void *arg)
{
    struct interruptions *seen = arg;
    const struct timespec nap = {0, NAP_MS * 1000000L};
    while (!atomic_load(&spinning_done)) {
        if (nanosleep(&nap, NULL) && errno == EINTR)
            seen->nanosleep_eintr++;
        if (poll(NULL, 0, NAP_MS) < 0 && errno == EINTR)
            seen->poll_eintr++;
    }
    seen->cpu_us = thread_cpu_us();
    return NULL;
}

static __attribute__((noipa)) void busy_main(unsigned ms)
{
    sink = spin_cpu_ms(ms, ms);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sleeper MS\n");
        return 2;
    }
    struct interruptions seen = {0, 0, 0};
    pthread_t sleeper;
    pthread_create(&sleeper, NULL, sleepy_wait, &seen);
    busy_main((unsigned)atoi(argv[1]));
    uint64_t spinning_us = thread_cpu_us();
    atomic_store(&spinning_done, 1);
    pthread_join(sleeper, NULL);
    fprintf(stderr, "sleeper: CPU us: waiting %llu spinning %llu\n",
            (unsigned long long)seen.cpu_us, (unsigned long long)spinning_us);
    if (seen.nanosleep_eintr + seen.poll_eintr == 0)
        printf("sleeper: EINTR none\n");
    else
        printf("sleeper: EINTR %u (nanosleep %u, poll %u)\n",
               seen.nanosleep_eintr + seen.poll_eintr, seen.nanosleep_eintr, seen.poll_eintr);
    return 0;
}
