/*
 * stress.c - 4 threads allocating and freeing as fast as they can
 * (malloc, calloc, realloc and free of blocks from 1 byte to 64 KiB, each
 * filled with a pattern checked before it is freed) until stdin ends, so
 * heap snapshots can be requested while every thread is inside malloc.
 *
 * Prints "ready <pid>" once the threads run, and when stdin ends, joins
 * them, frees everything and prints "stress: 4 threads, <n> corrupt
 * blocks"; exits 0 when no block was corrupt, 1 otherwise.
 *
 * usage: stress < anything
 * Never writes files.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 4
#define SLOTS 512

struct slot {
    unsigned char *block;
    size_t size;
};

static atomic_int stop;

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static size_t random_size(uint64_t *rng)
{
    uint64_t r = next_random(rng);
    return r % 16 == 0 ? 1 + (size_t)(r >> 8) % 65536 : 1 + (size_t)(r >> 8) % 512;
}

static int intact(const struct slot *s)
{
    for (size_t i = 0; i < s->size; i++)
        if (s->block[i] != (unsigned char)(s->size + i))
            return 0;
    return 1;
}

static void pattern(struct slot *s, size_t from)
{
    for (size_t i = from; i < s->size; i++)
        s->block[i] = (unsigned char)(s->size + i);
}

static __attribute__((noipa)) void allocate(struct slot *s, uint64_t *rng)
{
    s->size = random_size(rng);
    s->block = next_random(rng) % 4 ? malloc(s->size) : calloc(1, s->size);
    pattern(s, 0);
}

static __attribute__((noipa)) int resize(struct slot *s, uint64_t *rng)
{
    int ok = intact(s);
    s->size = random_size(rng);
    s->block = realloc(s->block, s->size);
    pattern(s, 0);
    return ok;
}

static __attribute__((noipa)) int release(struct slot *s)
{
    int ok = intact(s);
    free(s->block);
    s->block = NULL;
    return ok;
}

static void *churn(void *arg)
{
    struct slot slots[SLOTS] = {{0}};
    uint64_t rng = 0x9e3779b97f4a7c15ull * ((uintptr_t)arg + 1);
    long corrupt = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        for (int round = 0; round < 1000; round++) {
            struct slot *s = &slots[next_random(&rng) % SLOTS];
            if (!s->block)
                allocate(s, &rng);
            else if (next_random(&rng) % 3 == 0)
                corrupt += !resize(s, &rng);
            else
                corrupt += !release(s);
        }
    for (int i = 0; i < SLOTS; i++)
        if (slots[i].block)
            corrupt += !release(&slots[i]);
    return (void *)corrupt;
}

int main(void)
{
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, churn, (void *)(uintptr_t)i);
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    char buffer[256];
    while (fread(buffer, 1, sizeof buffer, stdin) > 0)
        ;
    atomic_store(&stop, 1);
    long corrupt = 0;
    for (int i = 0; i < THREADS; i++) {
        void *result;
        pthread_join(threads[i], &result);
        corrupt += (long)result;
    }
    printf("stress: %d threads, %ld corrupt blocks\n", THREADS, corrupt);
    return corrupt != 0;
}
