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

/* The keeper thread, and the one request it is asked at a time. */
struct keeper {
    pthread_t thread;
    int running;
    pthread_mutex_t lock;
    pthread_cond_t asked, answered;
    void (*request)(void *); /* NULL: leave */
    void *request_arg;
    int pending;
};

#define KEEPER_NOT_STARTED                                                                    \
    {                                                                                         \
        .lock = PTHREAD_MUTEX_INITIALIZER, .asked = PTHREAD_COND_INITIALIZER,                 \
        .answered = PTHREAD_COND_INITIALIZER,                                                 \
    }

static struct keeper keeper = KEEPER_NOT_STARTED;

static void *keeper_main(void *unused)
{
    agent_thread_mark_own();
    pthread_setname_np(pthread_self(), "stoke-keeper");
    pthread_mutex_lock(&keeper.lock);
    for (;;) {
        while (!keeper.pending)
            pthread_cond_wait(&keeper.asked, &keeper.lock);
        void (*fn)(void *) = keeper.request;
        if (fn) {
            pthread_mutex_unlock(&keeper.lock);
            fn(keeper.request_arg);
            pthread_mutex_lock(&keeper.lock);
        }
        keeper.pending = 0;
        pthread_cond_broadcast(&keeper.answered);
        if (!fn)
            break;
    }
    pthread_mutex_unlock(&keeper.lock);
    return NULL;
}

int keeper_start(void)
{
    int err = agent_thread_create(&keeper.thread, keeper_main, NULL);
    keeper.running = !err;
    return err;
}

static void ask(void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&keeper.lock);
    keeper.request = fn;
    keeper.request_arg = arg;
    keeper.pending = 1;
    pthread_cond_signal(&keeper.asked);
    while (keeper.pending)
        pthread_cond_wait(&keeper.answered, &keeper.lock);
    pthread_mutex_unlock(&keeper.lock);
}

void keeper_run(void (*fn)(void *), void *arg)
{
    if (agent_fds_in_own_table() && keeper.running)
        ask(fn, arg);
    else
        fn(arg);
}

void keeper_stop(void)
{
    if (!keeper.running)
        return;
    ask(NULL, NULL);
    pthread_join(keeper.thread, NULL);
    keeper.running = 0;
}

void keeper_fork_child(void)
{
    keeper = (struct keeper)KEEPER_NOT_STARTED;
}
