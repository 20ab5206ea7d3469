/*
 * malloc_burn.c - the benchmark workload for heap tracking: millions of
 * malloc/free pairs through a few call stacks, sizes mixed from 16 B to
 * 4 KiB, a ring of live blocks that are replaced as the work goes on, and a
 * few long-lived blocks never freed (the leak an exit snapshot shows). Then
 * one line on stdout that depends only on the arguments (the bytes the ring
 * held at the end, and a checksum of what was written into the blocks,
 * never of their addresses), so a profiler that changed the program's
 * behaviour shows up as a different line.
 *
 *   malloc_burn [MILLION_PAIRS [LIVE_BLOCKS]]     (default 20 50000)
 *   -> malloc_burn: 20000000 pairs, 50000 live blocks of 56789012 bytes,
 *      checksum 0123456789abcdef                             (one line)
 *
 * Compiled with -fno-builtin-malloc -fno-builtin-free so every call reaches
 * the allocator (and so the hooks of the profiler being measured). Each
 * path is its own non-inlined function so profilers see distinct stacks.
 * Never reads input, writes files or sleeps.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SIZE 16
#define MAX_SIZE 4096
#define LONG_LIVED_BLOCKS 64
#define NOINLINE __attribute__((noinline))

struct rng {
    uint64_t state;
};

static uint64_t next_random(struct rng *r)
{
    r->state ^= r->state << 13;
    r->state ^= r->state >> 7;
    r->state ^= r->state << 17;
    return r->state;
}

/* 16 B .. 4 KiB, small sizes more often than large ones (as in most
 * programs): a uniform size class, then uniform within it. */
static size_t random_size(struct rng *r)
{
    uint64_t x = next_random(r);
    unsigned shift = 4 + (unsigned)(x % 9); /* 16, 32, .. 4096 */
    size_t low = (size_t)1 << shift;
    size_t size = low + (size_t)((x >> 8) % low);
    return size > MAX_SIZE ? MAX_SIZE : size;
}

static void *checked_malloc(size_t size)
{
    void *p = malloc(size);
    if (!p) {
        fprintf(stderr, "malloc_burn: out of memory (%zu bytes)\n", size);
        exit(1);
    }
    return p;
}

/* Writes a value at both ends of a block and reads it back: the block is
 * touched as a program would touch it, and the checksum proves it. */
static uint64_t use_block(unsigned char *block, size_t size, uint64_t value)
{
    block[0] = (unsigned char)value;
    block[size - 1] = (unsigned char)(value >> 8);
    return (uint64_t)block[0] + ((uint64_t)block[size - 1] << 8) + size;
}

/* Short-lived small strings, freed by the function that made them. */
static NOINLINE uint64_t parse_message(struct rng *r)
{
    size_t size = MIN_SIZE + next_random(r) % 240;
    unsigned char *token = checked_malloc(size);
    uint64_t sum = use_block(token, size, next_random(r));
    free(token);
    return sum;
}

/* Short-lived buffers of any size. */
static NOINLINE uint64_t build_response(struct rng *r)
{
    size_t size = random_size(r);
    unsigned char *buffer = checked_malloc(size);
    uint64_t sum = use_block(buffer, size, next_random(r));
    free(buffer);
    return sum;
}

/* The live set: each call replaces one block of the ring with a new one. */
static NOINLINE uint64_t cache_put(struct rng *r, unsigned char **ring, size_t *sizes,
                                   size_t live)
{
    size_t slot = (size_t)(next_random(r) % live);
    free(ring[slot]);
    sizes[slot] = random_size(r);
    ring[slot] = checked_malloc(sizes[slot]);
    return use_block(ring[slot], sizes[slot], next_random(r));
}

static NOINLINE void fill_cache(struct rng *r, unsigned char **ring, size_t *sizes, size_t live)
{
    for (size_t i = 0; i < live; i++) {
        sizes[i] = random_size(r);
        ring[i] = checked_malloc(sizes[i]);
        use_block(ring[i], sizes[i], i);
    }
}

static NOINLINE void load_config(unsigned char **blocks)
{
    for (int i = 0; i < LONG_LIVED_BLOCKS; i++) {
        blocks[i] = checked_malloc(MAX_SIZE);
        memset(blocks[i], i, MAX_SIZE);
    }
}

static NOINLINE uint64_t serve(struct rng *r, uint64_t pairs, unsigned char **ring,
                               size_t *sizes, size_t live)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < pairs; i++) {
        unsigned which = (unsigned)(next_random(r) % 10);
        if (which < 5)
            sum += parse_message(r);
        else if (which < 8)
            sum += build_response(r);
        else
            sum += cache_put(r, ring, sizes, live);
    }
    return sum;
}

static long argument(int argc, char **argv, int i, long fallback, long max)
{
    if (argc <= i)
        return fallback;
    char *end;
    long value = strtol(argv[i], &end, 10);
    if (*end || value < 1 || value > max) {
        fprintf(stderr, "malloc_burn: '%s' is not a number from 1 to %ld\n", argv[i], max);
        exit(2);
    }
    return value;
}

int main(int argc, char **argv)
{
    uint64_t pairs = (uint64_t)argument(argc, argv, 1, 20, 100000) * 1000000;
    size_t live = (size_t)argument(argc, argv, 2, 50000, 10000000);
    struct rng r = {0x2545f4914f6cdd1dull};
    unsigned char *config[LONG_LIVED_BLOCKS];
    unsigned char **ring = checked_malloc(live * sizeof *ring);
    size_t *sizes = checked_malloc(live * sizeof *sizes);

    load_config(config);
    fill_cache(&r, ring, sizes, live);
    uint64_t sum = serve(&r, pairs, ring, sizes, live);
    uint64_t live_bytes = 0;
    for (size_t i = 0; i < live; i++) {
        live_bytes += sizes[i];
        free(ring[i]);
    }
    for (int i = 0; i < LONG_LIVED_BLOCKS; i++)
        sum += config[i][MAX_SIZE - 1];
    printf("malloc_burn: %" PRIu64 " pairs, %zu live blocks of %" PRIu64 " bytes, "
           "checksum %016" PRIx64 "\n", pairs, live, live_bytes, sum);
    free(sizes);
    free(ring);
    return 0;
}
