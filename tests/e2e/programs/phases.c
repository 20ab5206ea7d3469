/*
 * phases.c - two bursts of CPU in two functions with a pause between them
 * longer than the agent's flush interval (1 s), so the trace holds
 * phase_one and phase_two in different compressed frames: cutting the last
 * frame loses phase_two and keeps phase_one.
 *
 * usage: phases MS PAUSE_MS
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

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
    phase_one(ms);
    struct timespec pause = {pause_ms / 1000, (pause_ms % 1000) * 1000000L};
    while (nanosleep(&pause, &pause))
        ;
    phase_two(ms);
    printf("phases: done\n");
    return 0;
}
