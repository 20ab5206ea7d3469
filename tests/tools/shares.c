/*
 * shares.c - ground truth for CPU shares: every round costs 10 ms of the
 * thread's CPU time, spent 6 ms in share_sixty, 3 ms in share_thirty and
 * 1 ms in share_ten, all three reached through a 10-deep recursion of
 * descend(). Each thread does all the rounds, so the same per-thread work
 * on 2 threads is twice the CPU time of 1 thread.
 *
 * usage: shares THREADS ROUNDS
 * Never sleeps, reads input or writes files.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_spin.h"

#define RECURSION_DEPTH 10
#define MAX_THREADS 16

static unsigned rounds;
static volatile uint64_t sink;

static __attribute__((noipa)) uint64_t share_sixty(uint64_t x) { return spin_cpu_ms(x, 6); }
static __attribute__((noipa)) uint64_t share_thirty(uint64_t x) { return spin_cpu_ms(x, 3); }
static __attribute__((noipa)) uint64_t share_ten(uint64_t x) { return spin_cpu_ms(x, 1); }

static __attribute__((noipa)) uint64_t descend(unsigned levels, uint64_t x)
{
    if (levels == 0)
        return share_ten(share_thirty(share_sixty(x)));
    return descend(levels - 1, x + 1) ^ levels; /* not a tail call */
}

static void *run_rounds(void *seed)
{
    uint64_t x = (uintptr_t)seed;
    for (unsigned i = 0; i < rounds; i++)
        x = descend(RECURSION_DEPTH, x);
    sink = x;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: shares THREADS ROUNDS\n");
        return 2;
    }
    int threads = atoi(argv[1]);
    rounds = (unsigned)atoi(argv[2]);
    if (threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "shares: THREADS must be 1 to %d\n", MAX_THREADS);
        return 2;
    }
    pthread_t tids[MAX_THREADS];
    for (int i = 1; i < threads; i++)
        pthread_create(&tids[i], NULL, run_rounds, (void *)(uintptr_t)i);
    run_rounds(NULL);
    for (int i = 1; i < threads; i++)
        pthread_join(tids[i], NULL);
    printf("shares: %d thread(s) x %u rounds\n", threads, rounds);
    return 0;
}
