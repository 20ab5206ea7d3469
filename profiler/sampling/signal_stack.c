/*
 * signal_stack.c - the agent's own stack in each sampled thread (see
 * signal_stack.h). The stack is one mapping with a PROT_NONE guard page
 * below it; the agent's own sigaltstack calls are system calls made
 * directly, never through its interposer.
 */
#define _GNU_SOURCE
#include "signal_stack.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch_x86_64.h"

#define AGENT_STACK_SIZE (64 * 1024)
#define GUARD_SIZE 4096
#define RED_ZONE 128           /* the ABI's, below an interrupted stack pointer */
#define MIN_ROOM (16 * 1024)   /* the least a nested run needs */

static int real_sigaltstack(const stack_t *ss, stack_t *old)
{
    return (int)syscall(SYS_sigaltstack, ss, old);
}

static int is_agent_stack(const struct thread_state *t, const stack_t *st)
{
    return t->agent_stack_hi && !(st->ss_flags & SS_DISABLE) &&
           (uintptr_t)st->ss_sp == t->agent_stack_lo;
}

static int install(const struct thread_state *t)
{
    stack_t ss = {.ss_sp = (void *)t->agent_stack_lo,
                  .ss_size = t->agent_stack_hi - t->agent_stack_lo,
                  .ss_flags = 0};
    return real_sigaltstack(&ss, NULL);
}

int signal_stack_create(struct thread_state *t)
{
    char *base = mmap(NULL, GUARD_SIZE + AGENT_STACK_SIZE, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return -1;
    if (mprotect(base + GUARD_SIZE, AGENT_STACK_SIZE, PROT_READ | PROT_WRITE)) {
        munmap(base, GUARD_SIZE + AGENT_STACK_SIZE);
        return -1;
    }
    t->agent_stack_lo = (uintptr_t)base + GUARD_SIZE;
    t->agent_stack_hi = t->agent_stack_lo + AGENT_STACK_SIZE;
    stack_t current;
    if (!real_sigaltstack(NULL, &current) && (current.ss_flags & SS_DISABLE))
        install(t);
    return 0;
}

static void unmap(struct thread_state *t)
{
    munmap((void *)(t->agent_stack_lo - GUARD_SIZE), GUARD_SIZE + AGENT_STACK_SIZE);
    t->agent_stack_lo = t->agent_stack_hi = 0;
}

void signal_stack_destroy(struct thread_state *t)
{
    if (!t->agent_stack_hi)
        return;
    stack_t current, off = {.ss_flags = SS_DISABLE};
    if (!real_sigaltstack(NULL, &current) && is_agent_stack(t, &current) &&
        real_sigaltstack(&off, NULL))
        return; /* running on it (cannot be, here): better kept than freed under us */
    unmap(t);
}

void signal_stack_forget(struct thread_state *t)
{
    if (t->agent_stack_hi)
        unmap(t);
}

void signal_stack_run(struct thread_state *t, void (*fn)(void *), void *arg,
                      uintptr_t interrupted_sp)
{
    uintptr_t here = arch_stack_pointer(), lo = t->agent_stack_lo, hi = t->agent_stack_hi;
    if (!hi || (here >= lo && here < hi)) {
        fn(arg);
        return;
    }
    uintptr_t top = hi;
    if (interrupted_sp >= lo && interrupted_sp < hi)
        top = interrupted_sp - RED_ZONE; /* what was interrupted keeps its frames */
    top &= ~(uintptr_t)15;
    if (top < lo + MIN_ROOM)
        fn(arg); /* cannot be deeper than a hook and a handler: not reached */
    else
        arch_call_on_stack(fn, arg, top);
}

/* What a thread without the program's own alternate stack reports. */
static const stack_t none_set = {.ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0};

int signal_stack_program_call(const struct thread_state *t, const stack_t *ss, stack_t *old)
{
    stack_t current;
    if (!t || !t->agent_stack_hi || real_sigaltstack(NULL, &current))
        return real_sigaltstack(ss, old);
    int ours = is_agent_stack(t, &current);
    if (ss && (ss->ss_flags & SS_DISABLE)) {
        /* the program's own goes; the agent's takes its place again */
        if (!ours && (real_sigaltstack(ss, NULL) || install(t)))
            return -1;
    } else if (ss && real_sigaltstack(ss, NULL)) {
        return -1; /* the kernel's own answer, errno as it set it */
    }
    if (old)
        *old = ours ? none_set : current;
    return 0;
}
