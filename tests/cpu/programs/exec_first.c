/*
 * exec_first.c - spins in before_exec, then replaces itself (same pid) with
 * the program named by its first argument, passing the rest on. Prints its
 * pid first.
 *
 * usage: exec_first MS PROGRAM [ARGS...]
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static __attribute__((noipa)) void before_exec(unsigned ms) { sink = spin_cpu_ms(ms, ms); }

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: exec_first MS PROGRAM [ARGS...]\n");
        return 2;
    }
    printf("exec_first: pid %d\n", (int)getpid());
    fflush(stdout);
    before_exec((unsigned)atoi(argv[1]));
    execv(argv[2], argv + 2);
    perror("exec_first: execv");
    return 127;
}
