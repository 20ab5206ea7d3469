/*
 * agent_threads.h - the agent's own threads in a profiled process: the
 * writer (writer/writer.h) and its keeper (keeper.h). They are started past
 * the agent's pthread_create interposer, so they are never sampled, and
 * each marks itself as it starts, so that the allocation hooks leave what
 * it allocates alone (the writer's buffers are not the program's heap).
 */
#ifndef STOKE_AGENT_AGENT_THREADS_H
#define STOKE_AGENT_AGENT_THREADS_H

#include <pthread.h>

/* How many there are while the program is profiled: the writer and the
 * keeper. */
#define AGENT_THREADS 2

/* Starts one, with default attributes; returns 0 or an error number, as
 * pthread_create does.
 * Context: program. */
int agent_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);

/* The new thread's first call: it is one of the agent's own.
 * Context: writer, keeper. */
void agent_thread_mark_own(void);

/* 1 on one of the agent's own threads.
 * Context: any. */
int agent_thread_is_own(void);

#endif
