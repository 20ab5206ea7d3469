/*
 * growth.c - a known growth between two heap snapshots:
 *   base_x    keeps 4 MiB live (1024 blocks of 4 KiB) before the first
 *             snapshot and to the end
 *   grow_g    adds 8 MiB (2048 blocks of 4 KiB) between the snapshots
 *   churn_y   allocates and frees 50 MiB between the snapshots
 * The snapshots are taken with stoke_heap_dump(NULL); their paths are
 * printed on stderr as "dump 1: <path>" and "dump 2: <path>" (or "dump N:
 * failed: <error>"); stdout gets a summary that does not depend on the
 * agent. Everything is freed before exit.
 *
 * With "timed", no snapshot is taken: instead it prints the wall-clock
 * moments (ns since the epoch) "start NS" as main begins, "before NS" and
 * "after NS" on stdout, each QUIET_MS after the allocations before it and
 * QUIET_MS before those after it, so that the live heap over time the agent
 * records shows the growth between the two moments whatever the load.
 *
 * usage: growth [timed]
 * Never reads input or writes files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stoke.h"

#define BLOCK 4096
#define X_BLOCKS 1024
#define G_BLOCKS 2048
#define Y_BLOCKS 12800

static char *base[X_BLOCKS];
static char *grown[G_BLOCKS];
static volatile unsigned long long checksum;

static char *filled_block(int i)
{
    char *p = malloc(BLOCK);
    memset(p, i, BLOCK);
    checksum += (unsigned char)p[BLOCK / 2];
    return p;
}

static __attribute__((noipa)) void base_x(void)
{
    for (int i = 0; i < X_BLOCKS; i++)
        base[i] = filled_block(i);
}

static __attribute__((noipa)) void grow_g(void)
{
    for (int i = 0; i < G_BLOCKS; i++)
        grown[i] = filled_block(i);
}

static __attribute__((noipa)) void churn_y(void)
{
    for (int i = 0; i < Y_BLOCKS; i++)
        free(filled_block(i));
}

static void dump(int n)
{
    const char *path = stoke_heap_dump(NULL);
    if (path)
        fprintf(stderr, "dump %d: %s\n", n, path);
    else
        fprintf(stderr, "dump %d: failed: %s\n", n, strerror(errno));
}

#define QUIET_MS 1500

/* Prints "name NS" (the wall clock), with a quiet time before and after. */
static void moment(const char *name)
{
    struct timespec quiet = {QUIET_MS / 1000, (QUIET_MS % 1000) * 1000000L}, now;
    nanosleep(&quiet, NULL);
    clock_gettime(CLOCK_REALTIME, &now);
    printf("%s %lld\n", name, (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    fflush(stdout);
    nanosleep(&quiet, NULL);
}

/* A snapshot, or with timed a moment, between the phases. */
static void mark(int timed, int n)
{
    if (timed)
        moment(n == 1 ? "before" : "after");
    else
        dump(n);
}

static void free_all(char **blocks, int n)
{
    for (int i = 0; i < n; i++)
        free(blocks[i]);
}

int main(int argc, char **argv)
{
    int timed = argc > 1 && !strcmp(argv[1], "timed");
    if (timed) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        printf("start %lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    }
    base_x();
    mark(timed, 1);
    grow_g();
    churn_y();
    mark(timed, 2);
    free_all(base, X_BLOCKS);
    free_all(grown, G_BLOCKS);
    printf("growth: base %d bytes, grew %d bytes, churned %d bytes, checksum %llu\n",
           X_BLOCKS * BLOCK, G_BLOCKS * BLOCK, Y_BLOCKS * BLOCK, checksum);
    return 0;
}
