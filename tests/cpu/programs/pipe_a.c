/*
 * pipe_a.c - the writing end of a pipeline: spins in produce_items, then
 * writes COUNT lines "item N" to stdout.
 *
 * usage: pipe_a MS COUNT
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static __attribute__((noipa)) void produce_items(unsigned ms) { sink = spin_cpu_ms(ms, ms); }

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pipe_a MS COUNT\n");
        return 2;
    }
    produce_items((unsigned)atoi(argv[1]));
    int count = atoi(argv[2]);
    for (int i = 0; i < count; i++)
        printf("item %d\n", i);
    return 0;
}
