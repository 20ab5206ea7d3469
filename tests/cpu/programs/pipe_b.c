/*
 * pipe_b.c - the reading end of a pipeline: counts the lines of its input,
 * spins in consume_items, and prints the count.
 *
 * usage: pipe_b MS
 * Never writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static __attribute__((noipa)) void consume_items(unsigned ms) { sink = spin_cpu_ms(ms, ms); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pipe_b MS\n");
        return 2;
    }
    char line[256];
    unsigned lines = 0;
    while (fgets(line, sizeof line, stdin))
        lines++;
    consume_items((unsigned)atoi(argv[1]));
    printf("pipe_b: %u items\n", lines);
    return 0;
}
