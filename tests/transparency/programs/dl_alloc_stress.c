/*
 * dl_alloc_stress.c - one thread loads a library, calls it and unloads it
 * CYCLES times while four threads allocate and free blocks of many sizes
 * until it is done: under a profiler, samples and heap hooks land inside
 * dlopen, dlclose, the library's constructor and malloc, with the loader's
 * and the allocator's locks held. Prints a checksum that depends only on
 * the arguments, and each thread's block count.
 *
 * usage: dl_alloc_stress LIBRARY CYCLES
 * Never reads input or writes files.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALLOCATORS 4
#define SLOTS 64
#define ROUNDS_PER_CHECK 4096

static atomic_int cycling_done;

/* Allocates and frees blocks of 1 byte to 64 KiB; returns blocks made. */
static __attribute__((noipa)) long allocate_and_free(unsigned seed)
{
    void *slots[SLOTS] = {0};
    long made = 0;
    do {
        for (int i = 0; i < ROUNDS_PER_CHECK; i++, made++) {
            seed = seed * 1103515245u + 12345u;
            int slot = (seed >> 8) % SLOTS;
            free(slots[slot]);
            slots[slot] = malloc(1 + (seed >> 16) % 65536);
            if (slots[slot])
                memset(slots[slot], 0, 1);
        }
    } while (!atomic_load(&cycling_done));
    for (int i = 0; i < SLOTS; i++)
        free(slots[i]);
    return made;
}

static void *allocator(void *seed)
{
    return (void *)(intptr_t)(allocate_and_free((unsigned)(uintptr_t)seed) > 0);
}

static __attribute__((noipa)) int cycle(const char *path, uint64_t *sum)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "dl_alloc_stress: %s\n", dlerror());
        return -1;
    }
    uint64_t (*plugin_sum)(uint64_t) = (uint64_t (*)(uint64_t))dlsym(library, "plugin_sum");
    if (plugin_sum)
        *sum = plugin_sum(*sum);
    dlclose(library);
    return plugin_sum ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: dl_alloc_stress LIBRARY CYCLES\n");
        return 2;
    }
    pthread_t threads[ALLOCATORS];
    for (int i = 0; i < ALLOCATORS; i++)
        pthread_create(&threads[i], NULL, allocator, (void *)(uintptr_t)(i + 1));
    uint64_t sum = 0;
    long cycles = atol(argv[2]), failed = 0;
    for (long i = 0; i < cycles && !failed; i++)
        failed = cycle(argv[1], &sum);
    atomic_store(&cycling_done, 1);
    int all_made = 1;
    for (int i = 0; i < ALLOCATORS; i++) {
        void *made;
        pthread_join(threads[i], &made);
        all_made &= made != NULL;
    }
    printf("dl_alloc_stress: %ld cycles, checksum %016llx, allocators ok: %d\n", cycles,
           (unsigned long long)sum, all_made);
    return failed ? 1 : 0;
}
