/*
 * idle_thread.c - a preloadable library that starts one thread which
 * sleeps until the process ends, and does nothing else.
 *
 *   LD_PRELOAD=idle_thread.so malloc_burn
 *
 * The benchmark runs it beside stoke on the heap workloads as the floor of
 * what any in-process agent with a thread of its own costs: once a process
 * has a second thread, glibc's malloc and free take their arena locks
 * (atomic instructions) where a single-threaded process skips them. What
 * stoke costs beyond it is stoke's own work. Never allocates, signals or
 * writes anything; prints only when the thread cannot start.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *sleep_forever(void *unused)
{
    (void)unused;
    while (pause() == -1)
        ; /* pause returns only after a signal was handled: sleep again */
    return NULL;
}

__attribute__((constructor)) static void start_idle_thread(void)
{
    pthread_t thread;
    if (pthread_create(&thread, NULL, sleep_forever, NULL) != 0)
        fputs("idle_thread: cannot start the thread\n", stderr);
}
