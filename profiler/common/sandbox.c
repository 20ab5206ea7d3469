/*
 * sandbox.c - see sandbox.h. Once filtered, always filtered: a seccomp
 * filter can never be removed.
 */
#include "sandbox.h"

#include <stdatomic.h>

#include "procfs.h"

static _Atomic int filtered, strict_thread;

/* Not on the stack: a check may run on a small thread stack. */
static char status[4096];

int sandbox_check(void)
{
    if (atomic_load(&filtered))
        return 1;
    int mode = procfs_status_number("Seccomp", status, sizeof status);
    /* a kernel without seccomp shows no such line; a file that cannot be
     * read (no /proc in a sandbox) may hide a filter */
    if (mode != 0 && mode != PROCFS_NO_FIELD)
        atomic_store(&filtered, 1);
    return atomic_load(&filtered);
}

void sandbox_expect_filter(void)
{
    atomic_store(&filtered, 1);
}

void sandbox_expect_strict_thread(void)
{
    atomic_store(&strict_thread, 1);
}

int sandbox_filtered(void)
{
    return atomic_load_explicit(&filtered, memory_order_relaxed);
}

int sandbox_threads_restricted(void)
{
    return sandbox_filtered() || atomic_load_explicit(&strict_thread, memory_order_relaxed);
}
