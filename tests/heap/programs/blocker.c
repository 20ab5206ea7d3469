/*
 * blocker.c - threads that sit in blocking calls that a signal handler
 * would interrupt with EINTR (poll, epoll_wait, select, nanosleep) or that
 * SA_RESTART restarts (read on a pipe), while the test sends the heap dump
 * signal. Each call must end the way it ends without any signal: the
 * timeouts time out, nanosleep sleeps its full time, read gets the byte
 * main writes once the others are done.
 *
 * Prints "ready <pid>" once every thread is about to block (the test waits
 * BLOCK_MS minus a margin for its signals), then one line per call: "<call>:
 * ok" or "<call>: <what went wrong>". Exits 0 when all are ok, 1 otherwise.
 * It holds 2 MiB through hold_blocker meanwhile, so snapshots are not empty.
 *
 * usage: blocker BLOCK_MS
 * Never reads its input or writes files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#define HOLD_BLOCKS 32
#define HOLD_SIZE (64 * 1024)
#define CALLS 4

static int block_ms;
static int quiet_pipe[2]; /* never written: poll, epoll and select wait on it */
static int wake_pipe[2];  /* main writes one byte once the timed calls ended */
static pthread_barrier_t all_ready;
static char results[CALLS + 1][128];
static char *held[HOLD_BLOCKS];

static __attribute__((noipa)) void hold_blocker(void)
{
    for (int i = 0; i < HOLD_BLOCKS; i++) {
        held[i] = malloc(HOLD_SIZE);
        memset(held[i], i, HOLD_SIZE);
    }
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The result line of a call that should have returned 0 after block_ms. */
static void judge_timed(char *out, const char *call, int ret, int err, double elapsed_ms)
{
    if (ret < 0)
        snprintf(out, 128, "%s: failed with %s", call, err == EINTR ? "EINTR" : strerror(err));
    else if (ret > 0)
        snprintf(out, 128, "%s: returned %d, expected a timeout", call, ret);
    else if (elapsed_ms < block_ms - 5)
        snprintf(out, 128, "%s: returned after %.0f ms of %d", call, elapsed_ms, block_ms);
    else
        snprintf(out, 128, "%s: ok", call);
}

static void *in_poll(void *slot)
{
    struct pollfd fd = {.fd = quiet_pipe[0], .events = POLLIN};
    pthread_barrier_wait(&all_ready);
    double start = now_ms();
    int ret = poll(&fd, 1, block_ms);
    judge_timed(slot, "poll", ret, errno, now_ms() - start);
    return NULL;
}

static void *in_epoll_wait(void *slot)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN};
    epoll_ctl(ep, EPOLL_CTL_ADD, quiet_pipe[0], &event);
    pthread_barrier_wait(&all_ready);
    double start = now_ms();
    int ret = epoll_wait(ep, &event, 1, block_ms);
    judge_timed(slot, "epoll_wait", ret, errno, now_ms() - start);
    close(ep);
    return NULL;
}

static void *in_select(void *slot)
{
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(quiet_pipe[0], &readable);
    struct timeval timeout = {.tv_sec = block_ms / 1000, .tv_usec = block_ms % 1000 * 1000};
    pthread_barrier_wait(&all_ready);
    double start = now_ms();
    int ret = select(quiet_pipe[0] + 1, &readable, NULL, NULL, &timeout);
    judge_timed(slot, "select", ret, errno, now_ms() - start);
    return NULL;
}

static void *in_read(void *slot)
{
    char byte;
    pthread_barrier_wait(&all_ready);
    ssize_t n = read(wake_pipe[0], &byte, 1);
    if (n == 1 && byte == 'w')
        snprintf(slot, 128, "read: ok");
    else
        snprintf(slot, 128, "read: returned %zd (%s)", n, n < 0 ? strerror(errno) : "no byte");
    return NULL;
}

static void in_nanosleep(char *out)
{
    struct timespec length = {.tv_sec = block_ms / 1000, .tv_nsec = block_ms % 1000 * 1000000L};
    struct timespec left = {0, 0};
    double start = now_ms();
    int ret = nanosleep(&length, &left);
    int err = errno;
    if (ret)
        snprintf(out, 128, "nanosleep: failed with %s, %ld ms left",
                 err == EINTR ? "EINTR" : strerror(err),
                 left.tv_sec * 1000 + left.tv_nsec / 1000000);
    else
        judge_timed(out, "nanosleep", 0, 0, now_ms() - start);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (block_ms = atoi(argv[1])) < 100) {
        fprintf(stderr, "usage: blocker BLOCK_MS (at least 100)\n");
        return 2;
    }
    hold_blocker();
    if (pipe(quiet_pipe) || pipe(wake_pipe)) {
        perror("blocker: pipe");
        return 1;
    }
    void *(*calls[CALLS])(void *) = {in_poll, in_epoll_wait, in_select, in_read};
    pthread_t threads[CALLS];
    pthread_barrier_init(&all_ready, NULL, CALLS + 1);
    for (int i = 0; i < CALLS; i++)
        pthread_create(&threads[i], NULL, calls[i], results[i]);
    pthread_barrier_wait(&all_ready);
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    in_nanosleep(results[CALLS]);
    for (int i = 0; i < CALLS - 1; i++) /* the timed ones */
        pthread_join(threads[i], NULL);
    if (write(wake_pipe[1], "w", 1) != 1)
        perror("blocker: write");
    pthread_join(threads[CALLS - 1], NULL);
    int failed = 0;
    for (int i = 0; i <= CALLS; i++) {
        printf("%s\n", results[i]);
        failed |= strcmp(strchr(results[i], ':'), ": ok") != 0;
    }
    for (int i = 0; i < HOLD_BLOCKS; i++)
        free(held[i]);
    return failed;
}
