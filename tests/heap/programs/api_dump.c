/*
 * api_dump.c - calls stoke_heap_dump() and prints what it returned, on
 * stdout, one line per call: "dump <arg>: <path written>" or "dump <arg>:
 * NULL errno=<name>". It holds 1 MiB through hold_api (16 blocks of 64
 * KiB) while it dumps, and frees it before it exits.
 *
 * usage: api_dump PATH...          one dump per PATH ("-" for NULL: the
 *                                  agent picks the name)
 *        api_dump queue THREADS N  THREADS threads call stoke_heap_dump(NULL)
 *                                  N times each, at once; prints each path on
 *                                  stderr and "queue: <ok> written, <failed>
 *                                  failed, <distinct> distinct paths" on stdout
 * Never writes files itself.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stoke.h"

#define HOLD_BLOCKS 16
#define HOLD_SIZE (64 * 1024)
#define MAX_DUMPS 256
#define MAX_THREADS 16

static char *held[HOLD_BLOCKS];

static __attribute__((noipa)) void hold_api(void)
{
    for (int i = 0; i < HOLD_BLOCKS; i++) {
        held[i] = malloc(HOLD_SIZE);
        memset(held[i], i, HOLD_SIZE);
    }
}

static void release(void)
{
    for (int i = 0; i < HOLD_BLOCKS; i++)
        free(held[i]);
}

static const char *errno_name(int err)
{
    switch (err) {
    case ENOSYS: return "ENOSYS";
    case ENOTSUP: return "ENOTSUP";
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case EACCES: return "EACCES";
    case ENOTDIR: return "ENOTDIR";
    default: return strerror(err);
    }
}

static void dump_and_print(const char *arg)
{
    errno = 0;
    const char *path = stoke_heap_dump(strcmp(arg, "-") ? arg : NULL);
    if (path)
        printf("dump %s: %s\n", arg, path);
    else
        printf("dump %s: NULL errno=%s\n", arg, errno_name(errno));
}

/* --- queue: concurrent dumps ---------------------------------------------- */

static pthread_mutex_t results_lock = PTHREAD_MUTEX_INITIALIZER;
static char *written[MAX_DUMPS];
static int nwritten, nfailed, dumps_per_thread;

static void *dump_repeatedly(void *unused)
{
    (void)unused;
    for (int i = 0; i < dumps_per_thread; i++) {
        const char *path = stoke_heap_dump(NULL);
        char *copy = path ? strdup(path) : NULL;
        pthread_mutex_lock(&results_lock);
        if (copy && nwritten < MAX_DUMPS)
            written[nwritten++] = copy;
        else
            nfailed++;
        pthread_mutex_unlock(&results_lock);
    }
    return NULL;
}

static int distinct_paths(void)
{
    int distinct = 0;
    for (int i = 0; i < nwritten; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(written[i], written[j]);
        distinct += !seen;
    }
    return distinct;
}

static int queue(int threads, int dumps)
{
    if (threads < 1 || threads > MAX_THREADS || dumps < 1 || threads * dumps > MAX_DUMPS) {
        fprintf(stderr, "api_dump: queue: at most %d threads and %d dumps\n", MAX_THREADS,
                MAX_DUMPS);
        return 2;
    }
    dumps_per_thread = dumps;
    pthread_t ids[MAX_THREADS];
    for (int i = 0; i < threads; i++)
        pthread_create(&ids[i], NULL, dump_repeatedly, NULL);
    for (int i = 0; i < threads; i++)
        pthread_join(ids[i], NULL);
    printf("queue: %d written, %d failed, %d distinct paths\n", nwritten, nfailed,
           distinct_paths());
    for (int i = 0; i < nwritten; i++) {
        fprintf(stderr, "written: %s\n", written[i]);
        free(written[i]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: api_dump PATH... | api_dump queue THREADS N\n");
        return 2;
    }
    hold_api();
    int status = 0;
    if (!strcmp(argv[1], "queue") && argc == 4)
        status = queue(atoi(argv[2]), atoi(argv[3]));
    else
        for (int i = 1; i < argc; i++)
            dump_and_print(argv[i]);
    release();
    return status;
}
