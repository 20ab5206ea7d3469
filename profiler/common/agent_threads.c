/*
 * agent_threads.c - the agent's own threads and the marks of its work
 * (see agent_threads.h).
 */
#define _GNU_SOURCE
#include "agent_threads.h"

#include "real_libc.h"

__thread struct agent_marks agent_marks __attribute__((tls_model("initial-exec")));

int agent_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    return REAL(pthread_create)(thread, NULL, fn, arg);
}
