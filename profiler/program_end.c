/*
 * program_end.c - see program_end.h. /proc/self/status tells whether the
 * main thread has ended (the process shows as a zombie while other threads
 * live) and how many threads are left, the zombie main thread included;
 * the thread registry tells how they ended.
 */
#include "program_end.h"

#include <string.h>

#include "procfs.h"
#include "sandbox.h"
#include "threads.h"

#define AGENT_THREADS 1 /* the writer */

static char status[4096]; /* writer only */

/* "State:\tZ (zombie)" in the status just read. */
static int main_thread_ended(void)
{
    const char *state = strstr(status, "\nState:");
    if (!state)
        return 0;
    state += strlen("\nState:");
    state += strspn(state, " \t");
    return *state == 'Z';
}

enum program_end program_end_check(void)
{
    if (sandbox_filtered() ||
        procfs_status_number("Threads", status, sizeof status) != AGENT_THREADS + 1 ||
        !main_thread_ended())
        return PROGRAM_RUNNING;
    return threads_all_left_through_libc() ? PROGRAM_LEFT_THROUGH_LIBC : PROGRAM_LEFT_RAW;
}
