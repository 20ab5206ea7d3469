/*
 * cpu_burn.c - the example workload that stoke's README profiles: a small
 * program whose CPU time splits in known shares between a few clearly named
 * functions, one of them at the bottom of a 10-deep recursion.
 *
 *   main -> burn_rounds -> run_round -> descend (10 deep) -> score_positions 60%
 *                                    -> hash_keys                           30%
 *                                    -> checksum_block                      10%
 *
 * Each hot function runs the same dependency chain of one multiply, one
 * shift and one xor per step, so a step costs the same everywhere and the
 * shares are the step counts: 6 : 3 : 1. noipa keeps every function whole
 * and under its own name (no inlining, no .constprop clones).
 *
 * usage: cpu_burn [ROUNDS [THREADS]]   (defaults: 15 rounds, ~2.5 s; 1 thread)
 * Every thread does all the rounds. The output depends only on the
 * arguments. Never reads input, writes files, or sleeps.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_ROUNDS 15
#define MAX_THREADS 64
#define STEPS_PER_SHARE 10000000L /* one tenth of a round */
#define RECURSION_DEPTH 10

static __attribute__((noipa)) uint64_t score_positions(uint64_t x, long steps)
{
    for (long i = 0; i < steps; i++)
        x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
    return x;
}

static __attribute__((noipa)) uint64_t hash_keys(uint64_t x, long steps)
{
    for (long i = 0; i < steps; i++)
        x = (x ^ (x >> 31)) * 0x94d049bb133111ebull;
    return x;
}

static __attribute__((noipa)) uint64_t checksum_block(uint64_t x, long steps)
{
    for (long i = 0; i < steps; i++)
        x = (x ^ (x >> 27)) * 0x9e3779b97f4a7c15ull;
    return x;
}

/* Calls itself until levels frames of it are on the stack, then scores.
 * The work after each call keeps every call a real one (no tail call, no
 * loop), so each level shows in the profile. */
static __attribute__((noipa)) uint64_t descend(uint64_t x, int levels)
{
    uint64_t below = levels == 1 ? score_positions(x, 6 * STEPS_PER_SHARE)
                                 : descend(x + (uint64_t)levels, levels - 1);
    return (below ^ (uint64_t)levels) * 0xff51afd7ed558ccdull;
}

static __attribute__((noipa)) uint64_t run_round(uint64_t x)
{
    x = descend(x, RECURSION_DEPTH);
    x = hash_keys(x, 3 * STEPS_PER_SHARE);
    x = checksum_block(x, 1 * STEPS_PER_SHARE);
    return x ^ (x >> 32);
}

struct burner {
    pthread_t thread;
    long rounds;
    uint64_t result;
};

static void *burn_rounds(void *arg)
{
    struct burner *b = arg;
    uint64_t x = 1;
    for (long r = 0; r < b->rounds; r++)
        x = run_round(x);
    b->result = x;
    return NULL;
}

/* Reads a positive count from text; returns 0 when it is not one. */
static long parse_count(const char *text, long max)
{
    char *end;
    long value = strtol(text, &end, 10);
    return end != text && !*end && value > 0 && value <= max ? value : 0;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? parse_count(argv[1], 1000000) : DEFAULT_ROUNDS;
    long threads = argc > 2 ? parse_count(argv[2], MAX_THREADS) : 1;
    if (!rounds || !threads || argc > 3) {
        fprintf(stderr, "usage: cpu_burn [ROUNDS [THREADS]] (ROUNDS >= 1, 1 <= THREADS <= %d)\n",
                MAX_THREADS);
        return 2;
    }
    struct burner burners[MAX_THREADS];
    for (long t = 0; t < threads; t++) {
        burners[t].rounds = rounds;
        if (t > 0 && pthread_create(&burners[t].thread, NULL, burn_rounds, &burners[t])) {
            fprintf(stderr, "cpu_burn: cannot start thread %ld\n", t);
            return 1;
        }
    }
    burn_rounds(&burners[0]);
    for (long t = 1; t < threads; t++)
        pthread_join(burners[t].thread, NULL);
    printf("cpu_burn: %ld round%s on %ld thread%s, result %016llx\n", rounds,
           rounds == 1 ? "" : "s", threads, threads == 1 ? "" : "s",
           (unsigned long long)burners[0].result);
    return 0;
}
