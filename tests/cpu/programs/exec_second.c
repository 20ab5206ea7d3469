/*
 * exec_second.c - the program exec_first becomes: spins in after_exec and
 * prints its pid (the same as exec_first's).
 *
 * usage: exec_second MS
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static __attribute__((noipa)) void after_exec(unsigned ms) { sink = spin_cpu_ms(ms, ms); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: exec_second MS\n");
        return 2;
    }
    after_exec((unsigned)atoi(argv[1]));
    printf("exec_second: pid %d\n", (int)getpid());
    return 0;
}
