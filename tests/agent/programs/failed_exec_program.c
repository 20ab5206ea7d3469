/*
 * failed_exec_program.c - runs the same code before and after an exec that
 * fails: the agent finishes its trace before the exec and starts another
 * after it, which then samples the very stacks the first trace named.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* Spins for 0.3 s in one loop: few distinct stacks, each sampled often. */
__attribute__((noinline)) static void spin(void)
{
    double end = seconds() + 0.3;
    while (seconds() < end)
        for (unsigned long i = 0; i < 1000000; i++)
            sink += i;
}

int main(void)
{
    char *argv[] = {"absent", NULL};
    for (volatile int round = 0; round < 2; round++) { /* one call site for both */
        spin();
        if (round == 0 && execv("/nonexistent/absent", argv) == 0)
            return 1;
    }
    puts("done");
    return 0;
}
