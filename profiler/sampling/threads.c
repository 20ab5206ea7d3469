/*
 * threads.c - the registry of sampled threads (see threads.h). Slots are
 * claimed with compare-and-swap, so registering never takes a lock; only
 * the writer frees a state, after its thread exited and its ring drained.
 */
#define _GNU_SOURCE
#include "threads.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "signal_stack.h"

__thread struct thread_state *current_thread __attribute__((tls_model("initial-exec")));

static struct thread_state *_Atomic slots[MAX_THREADS];
static _Atomic int vanished; /* threads that ended through the raw exit system call */

static void read_stack_bounds(struct thread_state *t)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr))
        return;
    if (!pthread_attr_getstack(&attr, &addr, &size)) {
        t->stack_lo = (uintptr_t)addr;
        t->stack_hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
}

/* The calling thread's name, into t->name. */
static void read_name(struct thread_state *t)
{
    char name[16] = "";
    prctl(PR_GET_NAME, name);
    memcpy(t->name, name, sizeof name);
}

struct thread_state *threads_register(void)
{
    struct thread_state *t = mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED)
        return NULL;
    t->tid = gettid();
    t->timer.perf_fd = -1;
    t->syscall_file.fd = -1;
    read_stack_bounds(t);
    read_name(t);
    signal_stack_create(t);
    atomic_store(&t->state, THREAD_LIVE);
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread_state *expected = NULL;
        if (atomic_compare_exchange_strong(&slots[i], &expected, t)) {
            current_thread = t;
            return t;
        }
    }
    signal_stack_destroy(t);
    munmap(t, sizeof *t);
    return NULL;
}

void threads_unregister(void)
{
    struct thread_state *t = current_thread;
    if (!t)
        return;
    current_thread = NULL;
    signal_stack_destroy(t);
    read_name(t);
    atomic_store(&t->state, THREAD_EXITED);
}

void threads_vanish(void)
{
    struct thread_state *t = current_thread;
    if (!t)
        return;
    current_thread = NULL;
    atomic_store(&vanished, 1);
    atomic_store(&t->state, THREAD_VANISHED);
}

int threads_ended(const struct thread_state *t)
{
    int state = atomic_load(&t->state);
    return state == THREAD_EXITED || state == THREAD_VANISHED;
}

int threads_all_left_through_libc(void)
{
    if (atomic_load(&vanished))
        return 0;
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread_state *t = atomic_load(&slots[i]);
        if (t && !threads_ended(t))
            return 0;
    }
    return 1;
}

void threads_for_each(void (*fn)(struct thread_state *t, void *arg), void *arg)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread_state *t = atomic_load(&slots[i]);
        if (!t)
            continue;
        int ended = threads_ended(t);
        fn(t, arg);
        if (ended) {
            atomic_store(&slots[i], NULL);
            procfs_close(&t->syscall_file);
            munmap(t, sizeof *t);
        }
    }
}

void threads_for_each_live(void (*fn)(struct thread_state *t))
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread_state *t = atomic_load(&slots[i]);
        if (t && atomic_load(&t->state) == THREAD_LIVE)
            fn(t);
    }
}

void threads_reset_after_fork(void)
{
    struct thread_state *self = current_thread;
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread_state *t = atomic_load(&slots[i]);
        if (!t || t == self)
            continue;
        atomic_store(&slots[i], NULL);
        signal_stack_forget(t);
        procfs_close(&t->syscall_file);
        munmap(t, sizeof *t);
    }
    if (!self)
        return;
    procfs_close(&self->syscall_file); /* the parent's thread's */
    self->tid = gettid();
    atomic_store(&vanished, 0);
    atomic_store(&self->ring.head, 0);
    atomic_store(&self->ring.tail, 0);
    atomic_store(&self->samples, 0);
    atomic_store(&self->lost, 0);
    atomic_store(&self->handler_ns, 0);
    self->name_sent = 0;
}
