/*
 * ground_truth.c - a heap whose content is known by construction, for
 * checking what heap snapshots report:
 *   leak_a   leaks 10 MiB: 10240 blocks of 1 KiB, never freed
 *   churn_b  allocates 200 MiB in 51200 blocks of 4 KiB, each freed at once
 *   keep_c   keeps 30 MiB live: 480 blocks of 64 KiB
 * Then it takes a heap snapshot with stoke_heap_dump(NULL) and prints
 * "dump: <path>" (or "dump: failed: <error>") on stderr, frees keep_c's
 * blocks (so the exit snapshot holds leak_a's only) and prints a summary
 * on stdout that does not depend on the agent.
 *
 * usage: ground_truth
 * Never reads input or writes files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stoke.h"

#define A_BLOCKS 10240
#define A_SIZE 1024
#define B_BLOCKS 51200
#define B_SIZE 4096
#define C_BLOCKS 480
#define C_SIZE (64 * 1024)

static char *kept[C_BLOCKS];
static volatile unsigned long long checksum;

static __attribute__((noipa)) void leak_a(void)
{
    for (int i = 0; i < A_BLOCKS; i++) {
        char *p = malloc(A_SIZE);
        p[0] = (char)i;
        checksum += (unsigned char)p[0];
    }
}

static __attribute__((noipa)) void churn_b(void)
{
    for (int i = 0; i < B_BLOCKS; i++) {
        char *p = malloc(B_SIZE);
        p[B_SIZE - 1] = (char)i;
        checksum += (unsigned char)p[B_SIZE - 1];
        free(p);
    }
}

static __attribute__((noipa)) void keep_c(void)
{
    for (int i = 0; i < C_BLOCKS; i++) {
        kept[i] = malloc(C_SIZE);
        memset(kept[i], i, C_SIZE);
        checksum += (unsigned char)kept[i][C_SIZE / 2];
    }
}

static __attribute__((noipa)) void release_c(void)
{
    for (int i = 0; i < C_BLOCKS; i++)
        free(kept[i]);
}

static void dump(void)
{
    const char *path = stoke_heap_dump(NULL);
    if (path)
        fprintf(stderr, "dump: %s\n", path);
    else
        fprintf(stderr, "dump: failed: %s\n", strerror(errno));
}

int main(void)
{
    leak_a();
    churn_b();
    keep_c();
    dump();
    release_c();
    printf("ground_truth: leaked %d bytes, churned %d bytes, kept %d bytes, checksum %llu\n",
           A_BLOCKS * A_SIZE, B_BLOCKS * B_SIZE, C_BLOCKS * C_SIZE, checksum);
    return 0;
}
