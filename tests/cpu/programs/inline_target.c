/*
 * inline_target.c - its CPU time is spent in inner_kernel, a static inline
 * function forced inline into outer_loop: no call, no symbol of its own,
 * only debug info says it is there. The report must still show it as its
 * own frame under outer_loop, with this file and a line inside it.
 *
 * usage: inline_target MS
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static inline __attribute__((always_inline)) uint64_t inner_kernel(uint64_t x, unsigned ms)
{
    x = spin_cpu_ms(x, ms);
    return x ^ (x >> 17);
}

static __attribute__((noipa)) uint64_t outer_loop(unsigned ms)
{
    uint64_t x = ms;
    for (int i = 0; i < 10; i++)
        x = inner_kernel(x, ms / 10);
    return x;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: inline_target MS\n");
        return 2;
    }
    sink = outer_loop((unsigned)atoi(argv[1]));
    printf("inline_target: done\n");
    return 0;
}
