/*
 * phases.c - two bursts of CPU in two functions, phase_one then phase_two,
 * each for a given amount of the thread's CPU time, with a pause between
 * them. It prints the wall-clock moment (ns since the epoch) each phase
 * starts and the moment both are over, so a test knows which span of the
 * recording holds which function whatever the machine's load. A pause
 * longer than the agent's flush interval (1 s) puts the phases in different
 * compressed frames of the trace: cutting the last frame loses phase_two
 * and keeps phase_one.
 *
 * usage: phases MS PAUSE_MS
 * prints: "one NS", "two NS", "end NS" lines. Never reads input or writes
 * files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static __attribute__((noipa)) void phase_one(unsigned ms) { sink = spin_cpu_ms(1, ms); }
static __attribute__((noipa)) void phase_two(unsigned ms) { sink = spin_cpu_ms(2, ms); }

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: phases MS PAUSE_MS\n");
        return 2;
    }
    unsigned ms = (unsigned)atoi(argv[1]);
    long pause_ms = atol(argv[2]);
    printf("one %llu\n", (unsigned long long)wall_ns());
    phase_one(ms);
    struct timespec pause = {pause_ms / 1000, (pause_ms % 1000) * 1000000L};
    while (nanosleep(&pause, &pause))
        ;
    printf("two %llu\n", (unsigned long long)wall_ns());
    phase_two(ms);
    printf("end %llu\n", (unsigned long long)wall_ns());
    return 0;
}
