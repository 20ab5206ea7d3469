/*
 * agent_threads.c - the agent's own threads (see agent_threads.h): the
 * mark is one thread-local flag, read by the allocation hooks.
 */
#define _GNU_SOURCE
#include "agent_threads.h"

#include "real_libc.h"

static __thread int own __attribute__((tls_model("initial-exec")));

int agent_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    return REAL(pthread_create)(thread, NULL, fn, arg);
}

void agent_thread_mark_own(void)
{
    own = 1;
}

int agent_thread_is_own(void)
{
    return own;
}
