/*
 * signal_in_switch.c - a preloaded library for heap.signal_in_switch: the
 * system call the agent makes when its heap tables turn from one thread's to
 * shared (membarrier) returns with SIGUSR1 raised, as if a signal had
 * arrived at that moment; hooks' handler then allocates and frees while the
 * switch is under way.
 *
 * Interposes syscall(); everything else passes through unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long number, ...)
{
    static long (*real)(long, ...);
    if (!real)
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    va_list ap;
    va_start(ap, number);
    long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long);
    long a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
    va_end(ap);
    long ret = real(number, a1, a2, a3, a4, a5, a6);
    if (number == SYS_membarrier && a1 == MEMBARRIER_CMD_PRIVATE_EXPEDITED)
        raise(SIGUSR1);
    return ret;
}
