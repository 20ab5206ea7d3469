/*
 * threads.h - the registry of sampled threads and their per-thread state.
 *
 * Each thread that the agent samples owns one thread_state, mmap'ed when
 * the thread registers (program context) and reclaimed by the writer after
 * the thread has exited and its ring is drained. The signal handler finds
 * its thread's state through a TLS pointer, never through the registry.
 */
#ifndef STOKE_AGENT_THREADS_H
#define STOKE_AGENT_THREADS_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <ucontext.h>

#include "ring.h"
#include "stoke_format.h"
#include "common/procfs.h"
#include "heap/stack_cache.h"

#define MAX_THREADS 4096

/* EXITED: through libc's thread exit (the agent's key destructor ran);
 * VANISHED: through the raw exit system call (seen by syscall()). */
enum thread_slot_state { THREAD_LIVE = 1, THREAD_EXITED = 2, THREAD_VANISHED = 3 };

/* Handles are atomic: the thread itself (at exit) and the thread stopping
 * the whole process may both try to stop the same timer. */
struct sample_timer {
    _Atomic int perf_fd;     /* perf engine: the task-clock event, else -1 */
    timer_t posix_timer;     /* POSIX engines */
    _Atomic int posix_armed;
    int first_pending;       /* perf: the first, randomized period is running */
};

struct thread_state {
    _Atomic int state;                /* enum thread_slot_state */
    pid_t tid;
    uintptr_t stack_lo, stack_hi;
    uintptr_t agent_stack_lo, agent_stack_hi; /* signal_stack.h; 0 when none */
    struct sample_timer timer;
    _Atomic uint64_t samples, lost, handler_ns;
    int in_handler;
    int strict;                       /* in seccomp strict mode: no clock, no system call */
    uint64_t sample_end_ns;           /* handler: when its last sample ended */
    uint64_t sample_cpu_ns;           /* handler: the thread's CPU time then; 0: none yet */
    uint64_t sample_wall_ns;          /* handler: when its last sample was weighed */
    int name_sent;                    /* writer: THREAD record written */
    char name[16];
    uint64_t frames[STOKE_MAX_FRAMES]; /* handler scratch */
    /* wall clock: the last blocked stack, reused while the thread waits at
     * the same place (writer thread only) */
    uint64_t blocked_sp, blocked_pc;
    uint32_t blocked_n, blocked_flags;
    struct procfs_file syscall_file;  /* its /proc/.../syscall (writer/blocked_sampler.h) */
    uint64_t blocked_frames[STOKE_MAX_FRAMES];
    struct stack_cache alloc_stacks;  /* heap/heap.c: recent allocation stacks */
    ucontext_t hook_context;          /* heap/heap.c: where an allocation's walk starts */
    struct ring ring;
};

extern __thread struct thread_state *current_thread
    __attribute__((tls_model("initial-exec")));

/* Registers the calling thread and returns its state (also set as
 * current_thread), or NULL when out of slots or memory.
 * Context: program. */
struct thread_state *threads_register(void);

/* Marks the calling thread's state exited; the caller has already stopped
 * its timer. The writer reclaims it.
 * Context: program. */
void threads_unregister(void);

/* The calling thread ends through the raw exit system call: marks its
 * state VANISHED. Makes no system call (strict mode allows none).
 * Context: program. */
void threads_vanish(void);

/* 1 when the state's thread has ended (EXITED or VANISHED).
 * Context: any. */
int threads_ended(const struct thread_state *t);

/* 1 when no registered thread is live and none ever vanished: every
 * thread left through libc.
 * Context: writer. */
int threads_all_left_through_libc(void);

/* Calls fn for each registered state; reclaims ended ones after fn has
 * drained them (and released what a VANISHED thread could not).
 * Context: writer. */
void threads_for_each(void (*fn)(struct thread_state *t, void *arg), void *arg);

/* Calls fn for each live state (to stop or settle every clock).
 * Context: program, writer, keeper. */
void threads_for_each_live(void (*fn)(struct thread_state *t));

/* fork child: forgets every thread but the caller, whose ring is emptied.
 * Context: program. */
void threads_reset_after_fork(void);

#endif
