/*
 * keeper.c - see keeper.h. A request is a function and its argument,
 * handed over under one lock; a null function asks the keeper to leave.
 * Only the writer asks (keeper_stop aside), while it holds its own lock,
 * which fork waits for, or once the program has no thread left: a fork
 * never finds a request half done.
 */
#define _GNU_SOURCE
#include "keeper.h"

#include <pthread.h>

#include "agent_fds.h"
#include "agent_threads.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t asked = PTHREAD_COND_INITIALIZER, answered = PTHREAD_COND_INITIALIZER;
static void (*request)(void *);
static void *request_arg;
static int pending;
static int running;
static pthread_t keeper;

static void *keeper_main(void *unused)
{
    agent_thread_mark_own();
    pthread_setname_np(pthread_self(), "stoke-keeper");
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!pending)
            pthread_cond_wait(&asked, &lock);
        void (*fn)(void *) = request;
        if (fn) {
            pthread_mutex_unlock(&lock);
            fn(request_arg);
            pthread_mutex_lock(&lock);
        }
        pending = 0;
        pthread_cond_broadcast(&answered);
        if (!fn)
            break;
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int keeper_start(void)
{
    int err = agent_thread_create(&keeper, keeper_main, NULL);
    running = !err;
    return err;
}

static void ask(void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&lock);
    request = fn;
    request_arg = arg;
    pending = 1;
    pthread_cond_signal(&asked);
    while (pending)
        pthread_cond_wait(&answered, &lock);
    pthread_mutex_unlock(&lock);
}

void keeper_run(void (*fn)(void *), void *arg)
{
    if (agent_fds_in_own_table() && running)
        ask(fn, arg);
    else
        fn(arg);
}

void keeper_stop(void)
{
    if (!running)
        return;
    ask(NULL, NULL);
    pthread_join(keeper, NULL);
    running = 0;
}

void keeper_fork_child(void)
{
    pthread_mutex_t fresh_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t fresh_cond = PTHREAD_COND_INITIALIZER;
    lock = fresh_lock;
    asked = answered = fresh_cond;
    pending = 0;
    running = 0;
}
