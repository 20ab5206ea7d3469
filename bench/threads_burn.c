/*
 * threads_burn.c - the benchmark workload for sampling rates: N threads that
 * each spin on the CPU until they have used S seconds of their own CPU time,
 * then one line on stdout with the CPU time the spinning threads used, which
 * the harness divides a profiler's sample count by.
 *
 *   threads_burn THREADS SECONDS
 *   -> threads_burn: 4 threads, cpu_seconds 8.000123
 *
 * The work is measured in CPU time, not wall time, so every thread does the
 * same work however many cores it shares. Only the spinning threads count:
 * the main thread waits in pthread_join and uses none. Never reads input,
 * writes files or sleeps.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_THREADS 64
#define STEPS_BETWEEN_CLOCK_READS 200000L /* about 0.2 ms of work */

struct spinner {
    pthread_t thread;
    double cpu_seconds_wanted;
    double cpu_seconds_used;
    uint64_t result;
};

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static __attribute__((noipa)) uint64_t mix_steps(uint64_t x, long steps)
{
    for (long i = 0; i < steps; i++)
        x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
    return x;
}

static void *spin(void *arg)
{
    struct spinner *s = arg;
    uint64_t x = 1;
    double used;
    while ((used = thread_cpu_seconds()) < s->cpu_seconds_wanted)
        x = mix_steps(x, STEPS_BETWEEN_CLOCK_READS);
    s->cpu_seconds_used = used;
    s->result = x;
    return NULL;
}

static int usage(void)
{
    fprintf(stderr, "usage: threads_burn THREADS SECONDS (1 <= THREADS <= %d, SECONDS > 0)\n",
            MAX_THREADS);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return usage();
    char *end_threads, *end_seconds;
    long threads = strtol(argv[1], &end_threads, 10);
    double seconds = strtod(argv[2], &end_seconds);
    if (*end_threads || end_threads == argv[1] || threads < 1 || threads > MAX_THREADS ||
        *end_seconds || end_seconds == argv[2] || !(seconds > 0 && seconds < 3600))
        return usage();

    struct spinner spinners[MAX_THREADS];
    long started = 0;
    for (; started < threads; started++) {
        spinners[started].cpu_seconds_wanted = seconds;
        if (pthread_create(&spinners[started].thread, NULL, spin, &spinners[started])) {
            fprintf(stderr, "threads_burn: cannot start thread %ld\n", started + 1);
            break;
        }
    }
    double cpu_seconds = 0;
    for (long t = 0; t < started; t++) {
        pthread_join(spinners[t].thread, NULL);
        cpu_seconds += spinners[t].cpu_seconds_used;
    }
    printf("threads_burn: %ld threads, cpu_seconds %.6f\n", started, cpu_seconds);
    return started == threads ? 0 : 1;
}
