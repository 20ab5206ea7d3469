/*
 * program_end.c - see program_end.h. /proc/self/status tells whether the
 * main thread has ended (the process shows as a zombie while other threads
 * live) and how many threads are left, the zombie main thread included;
 * the thread registry tells how they ended.
 */
#include "program_end.h"

#include <stdlib.h>
#include <string.h>

#include "common/agent_threads.h"
#include "common/procfs.h"
#include "common/sandbox.h"
#include "sampling/threads.h"

static char status[4096]; /* writer only */
static struct procfs_file status_file = {-1}, stat_file = {-1};

void program_end_open(void)
{
    procfs_keep(&status_file, "/proc/self/status");
    procfs_keep(&stat_file, "/proc/self/stat");
}

void program_end_close(void)
{
    procfs_close(&status_file);
    procfs_close(&stat_file);
}

/* Reads a kept file into status; 0 when it could not be read. */
static size_t reread(const struct procfs_file *f)
{
    size_t len = procfs_reread(f, status, sizeof status - 1);
    status[len] = 0;
    return len;
}

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

/* Field 52 of /proc/self/stat (the main thread's): its exit code, as
 * waitpid gives it. Fields after the command name (which may hold spaces
 * and parentheses) start with the 3rd. */
int program_end_main_status(void)
{
    reread(&stat_file);
    const char *field = strrchr(status, ')');
    for (int number = 2; field && number < 52; number++)
        field = strchr(field + 1, ' ');
    return field ? (atoi(field + 1) >> 8) & 0xff : 0;
}

enum program_end program_end_check(void)
{
    if (sandbox_filtered() || !reread(&status_file) ||
        procfs_field_number(status, "Threads") != AGENT_THREADS + 1 || !main_thread_ended())
        return PROGRAM_RUNNING;
    return threads_all_left_through_libc() ? PROGRAM_LEFT_THROUGH_LIBC : PROGRAM_LEFT_RAW;
}
