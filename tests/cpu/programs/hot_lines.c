/*
 * hot_lines.c - one function, two hot loops, each on a line of its own:
 * the first runs twice as many rounds of the same work as the second, so
 * two thirds of two_loops' time is on the line marked HOT_TWO_THIRDS and
 * one third on the line marked HOT_ONE_THIRD. The two take turns, a
 * chunk at a time, so a change of clock speed or a neighbour's load
 * weighs on both alike. Each loop is written on one line so that every
 * instruction of it (the work, the count, the branch) is on that line. A comment beside them holds what a report must show as
 * text (markup, a byte that is not UTF-8).
 *
 * usage: hot_lines ROUNDS
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile uint64_t sink;

#define STEP(x) ((x) * 6364136223846793005u + ((x) >> 29))
#define CHUNK 4096 /* rounds of the second loop between two of the first */

static __attribute__((noipa)) uint64_t two_loops(uint64_t rounds)
{
    /* shown as text by a report: </script><img src=x onerror="document.title='pwned'"> ÿ */
    uint64_t a = rounds, b = rounds ^ 0x9e3779b9u;
    for (uint64_t chunk = 0; chunk < rounds / CHUNK; chunk++) {
        for (uint64_t i = 0; i < 2 * CHUNK; i++) a = STEP(a); /* HOT_TWO_THIRDS */
        for (uint64_t i = 0; i < CHUNK; i++) b = STEP(b); /* HOT_ONE_THIRD */
    }
    return a ^ b;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hot_lines ROUNDS\n");
        return 2;
    }
    sink = two_loops(strtoull(argv[1], NULL, 10));
    printf("hot_lines: done\n");
    return 0;
}
