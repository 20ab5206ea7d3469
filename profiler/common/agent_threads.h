/*
 * agent_threads.h - what the agent does in a profiled process's threads,
 * so that the allocation hooks leave it alone (the writer's buffers, a
 * thread's start block: not the program's heap).
 *
 * The agent's own threads, the writer (writer/writer.h) and its keeper
 * (keeper.h), are started past the agent's pthread_create interposer, so
 * they are never sampled, and each marks itself as it starts. On the
 * program's threads, the agent marks the span of its own work: a hook's,
 * a thread's start, a fork child's first steps, a failed exec's.
 */
#ifndef STOKE_AGENT_AGENT_THREADS_H
#define STOKE_AGENT_AGENT_THREADS_H

#include <pthread.h>
#include <stdatomic.h>

/* How many there are while the program is profiled: the writer and the
 * keeper. */
#define AGENT_THREADS 2

/* The calling thread's marks, read by the hooks on their slow paths: one
 * per thread, together, so a hook finds both with one lookup. */
struct agent_marks {
    int busy; /* inside the agent's own work (it nests) */
    int own;  /* one of the agent's own threads */
};

extern __thread struct agent_marks agent_marks __attribute__((tls_model("initial-exec")));

/* Starts one of the agent's own threads, with default attributes; returns
 * 0 or an error number, as pthread_create does.
 * Context: program. */
int agent_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);

/* The new thread's first call: it is one of the agent's own.
 * Context: writer, keeper. */
static inline void agent_thread_mark_own(void)
{
    agent_marks.own = 1;
}

/* Brackets the agent's own work on a program thread: what it allocates or
 * frees meanwhile is not the program's. The mark must be in memory while
 * the agent's own malloc or free runs, since this thread's hooks read it:
 * the fences keep the compiler from dropping the pair around a call it
 * believes touches no memory of the agent's.
 * Context: program, hooks. */
static inline void agent_work_begin(void)
{
    agent_marks.busy++;
    atomic_signal_fence(memory_order_seq_cst);
}

/* The end of that span.
 * Context: program, hooks. */
static inline void agent_work_end(void)
{
    atomic_signal_fence(memory_order_seq_cst);
    agent_marks.busy--;
}

#endif
