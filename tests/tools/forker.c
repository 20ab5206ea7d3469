/*
 * forker.c - a parent and a forked child, each spinning in its own
 * function: child_work in the child, parent_work in the parent (after the
 * fork, so the child inherits a running agent). Prints the child's pid and
 * how it ended.
 *
 * usage: forker MS
 * Never reads input or writes files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu_spin.h"

static volatile uint64_t sink;

static __attribute__((noipa)) void child_work(unsigned ms) { sink = spin_cpu_ms(ms, ms); }
static __attribute__((noipa)) void parent_work(unsigned ms) { sink = spin_cpu_ms(ms, ms); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: forker MS\n");
        return 2;
    }
    unsigned ms = (unsigned)atoi(argv[1]);
    pid_t child = fork();
    if (child < 0) {
        perror("forker: fork");
        return 1;
    }
    if (child == 0) {
        child_work(ms);
        exit(0);
    }
    parent_work(ms);
    int status;
    if (waitpid(child, &status, 0) != child) {
        perror("forker: waitpid");
        return 1;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    printf("forker: child %d exited %d\n", (int)child, code);
    return 0;
}
