/*
 * endless_hot.c - spins in hot_until_killed until it is killed (the SIGKILL
 * test), or after LIMIT_S seconds of CPU time at the latest, so a test that
 * fails to kill it does not leave it running forever.
 *
 * usage: endless_hot
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>

#include "cpu_spin.h"

#define LIMIT_S 60

static volatile uint64_t sink;

static __attribute__((noipa)) void hot_until_killed(void)
{
    for (int i = 0; i < LIMIT_S * 10; i++)
        sink = spin_cpu_ms(sink, 100);
}

int main(void)
{
    hot_until_killed();
    fprintf(stderr, "endless_hot: not killed within %d s of CPU time\n", LIMIT_S);
    return 1;
}
