/*
 * three_functions.c - ground truth for diffs across rebuilds: every round
 * costs ALPHA_MS + BETA_MS + GAMMA_MS of the thread's CPU time, spent in
 * alpha_hot, beta_warm and gamma_cool. tests/diff/test_diff.py builds it
 * twice with gcc and clang: as it is, and edited (comment lines above the
 * functions, beta_warm's cost doubled) to stand for a rebuilt program.
 *
 * usage: three_functions ROUNDS
 * Never sleeps, reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_spin.h"

#define ALPHA_MS 5
#define BETA_MS 3
#define GAMMA_MS 2

/* Each function is a frame of its own: gcc's noipa also keeps it from
 * being cloned under another name; clang has no noipa. */
#ifdef __clang__
#define OWN_FRAME __attribute__((noinline))
#else
#define OWN_FRAME __attribute__((noipa))
#endif

static volatile uint64_t sink;

static OWN_FRAME uint64_t alpha_hot(uint64_t x) { return spin_cpu_ms(x, ALPHA_MS); }
static OWN_FRAME uint64_t beta_warm(uint64_t x) { return spin_cpu_ms(x, BETA_MS); }
static OWN_FRAME uint64_t gamma_cool(uint64_t x) { return spin_cpu_ms(x, GAMMA_MS); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: three_functions ROUNDS\n");
        return 2;
    }
    unsigned rounds = (unsigned)atoi(argv[1]);
    uint64_t x = 1;
    for (unsigned i = 0; i < rounds; i++)
        x = gamma_cool(beta_warm(alpha_hot(x)));
    sink = x;
    return 0;
}
