/*
 * oom.c - allocation failures for real. Keeps 1 MiB through
 * leak_before_limit (256 blocks of 4 KiB), then lowers its address space
 * limit (RLIMIT_AS) to what it uses plus HEADROOM_MIB and:
 *   fill_to_limit  allocates 1 KiB blocks until malloc fails, which must
 *                  say ENOMEM, and frees every other one: the holes stay
 *                  in the C library's heap, usable by malloc only
 *   fill_holes     allocates 16-byte blocks into the holes until malloc
 *                  fails again: many allocations and no address space left
 *                  for anyone else (a heap tracker's tables cannot grow)
 * then calloc must fail with ENOMEM, and so must growing a block with
 * realloc, which keeps it as it was. Everything allocated under the limit
 * is freed, the limit is raised back, and malloc must work again.
 *
 * Prints "oom: malloc, calloc and realloc failed with ENOMEM; malloc works
 * again" and exits 0, or says what went wrong and exits 1. How many blocks
 * fitted (it differs between runs) goes to stderr as "note: ".
 *
 * usage: oom HEADROOM_MIB
 * Never reads input or writes files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define MAX_BLOCKS (1 << 22)
#define KEPT_BLOCKS 256
#define KEPT_SIZE 4096

static char *blocks[MAX_BLOCKS]; /* static: no allocation needed under the limit */
static long nblocks;
static char *kept[KEPT_BLOCKS];

static __attribute__((noipa)) void leak_before_limit(void)
{
    for (int i = 0; i < KEPT_BLOCKS; i++) {
        kept[i] = malloc(KEPT_SIZE);
        memset(kept[i], i, KEPT_SIZE);
    }
}

/* The size of the address space in use, from /proc/self/status. */
static long vm_size_bytes(void)
{
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (status && fgets(line, sizeof line, status))
        if (sscanf(line, "VmSize: %ld kB", &kib) == 1)
            break;
    if (status)
        fclose(status);
    return kib < 0 ? -1 : kib * 1024;
}

/* Allocates blocks of size until malloc fails; 0 when it failed with
 * ENOMEM as it should, -1 otherwise (said on stdout). */
static int allocate_until_failure(size_t size)
{
    for (; nblocks < MAX_BLOCKS; nblocks++) {
        errno = 0;
        blocks[nblocks] = malloc(size);
        if (!blocks[nblocks]) {
            if (errno == ENOMEM)
                return 0;
            printf("oom: malloc failed with %s, not ENOMEM\n", strerror(errno));
            return -1;
        }
        memset(blocks[nblocks], 1, size);
    }
    printf("oom: malloc never failed under the limit\n");
    return -1;
}

static __attribute__((noipa)) int fill_to_limit(void)
{
    if (allocate_until_failure(1024))
        return -1;
    for (long i = 1; i < nblocks; i += 2) {
        free(blocks[i]);
        blocks[i] = NULL;
    }
    return 0;
}

static __attribute__((noipa)) int fill_holes(void)
{
    return allocate_until_failure(16);
}

static int others_fail_too(void)
{
    errno = 0;
    void *zeroed = calloc(1 << 20, 64);
    int calloc_ok = !zeroed && errno == ENOMEM;
    free(zeroed);
    errno = 0;
    char *grown = realloc(blocks[0], (size_t)256 << 20);
    int realloc_ok = !grown && errno == ENOMEM && blocks[0][1023] == 1;
    if (grown)
        blocks[0] = grown;
    if (!calloc_ok || !realloc_ok)
        printf("oom: calloc %s, realloc %s under the limit\n", calloc_ok ? "failed" : "worked",
               realloc_ok ? "failed" : "worked");
    return calloc_ok && realloc_ok;
}

int main(int argc, char **argv)
{
    long headroom_mib = argc == 2 ? atol(argv[1]) : 0;
    if (headroom_mib < 1) {
        fprintf(stderr, "usage: oom HEADROOM_MIB\n");
        return 2;
    }
    leak_before_limit();
    struct rlimit original, lowered;
    long in_use = vm_size_bytes();
    if (in_use < 0 || getrlimit(RLIMIT_AS, &original)) {
        perror("oom: cannot read the address space size or limit");
        return 1;
    }
    lowered = original;
    lowered.rlim_cur = (rlim_t)in_use + ((rlim_t)headroom_mib << 20);
    if (setrlimit(RLIMIT_AS, &lowered)) {
        perror("oom: setrlimit");
        return 1;
    }
    int ok = !fill_to_limit() && !fill_holes() && others_fail_too();
    for (long i = 0; i < nblocks; i++)
        free(blocks[i]);
    setrlimit(RLIMIT_AS, &original);
    void *after = malloc(1 << 20);
    ok = ok && after;
    free(after);
    fprintf(stderr, "note: %ld blocks fitted\n", nblocks);
    if (ok)
        printf("oom: malloc, calloc and realloc failed with ENOMEM; malloc works again\n");
    return !ok;
}
