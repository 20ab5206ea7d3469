/*
 * dl_stress.c - loads and unloads a library CYCLES times in a loop (calling
 * into it each time) while WORKERS threads spin in worker_spin, all of them
 * sampled: samples land inside dlopen and dlclose, with the loader's lock
 * held, which must not deadlock the agent. Prints the cycle count and a
 * checksum that depends only on the arguments.
 *
 * usage: dl_stress LIBRARY CYCLES WORKERS
 * Never reads input or writes files.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_spin.h"

#define MAX_WORKERS 8
#define WORKER_SLICE_MS 5

static atomic_int cycling_done;
static volatile uint64_t sink;

static __attribute__((noipa)) void *worker_spin(void *seed)
{
    uint64_t x = (uintptr_t)seed;
    while (!atomic_load(&cycling_done))
        x = spin_cpu_ms(x, WORKER_SLICE_MS);
    sink = x;
    return NULL;
}

/* One load, call and unload. Returns 0, or -1 with the loader's message. */
static __attribute__((noipa)) int load_call_unload(const char *path, uint64_t *x,
                                                   const char **error)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        return -1;
    }
    uint64_t (*checksum)(uint64_t) = (uint64_t (*)(uint64_t))dlsym(library, "plugin_checksum");
    if (checksum)
        *x ^= checksum(*x + 1);
    else
        *error = dlerror();
    if (dlclose(library) && checksum) {
        *error = dlerror();
        return -1;
    }
    return checksum ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: dl_stress LIBRARY CYCLES WORKERS\n");
        return 2;
    }
    long cycles = atol(argv[2]);
    int workers = atoi(argv[3]);
    if (workers < 0 || workers > MAX_WORKERS) {
        fprintf(stderr, "dl_stress: WORKERS must be 0 to %d\n", MAX_WORKERS);
        return 2;
    }
    pthread_t tids[MAX_WORKERS];
    for (int i = 0; i < workers; i++)
        pthread_create(&tids[i], NULL, worker_spin, (void *)(uintptr_t)(i + 1));
    uint64_t total = 0;
    for (long i = 0; i < cycles; i++) {
        const char *error;
        if (load_call_unload(argv[1], &total, &error)) {
            fprintf(stderr, "dl_stress: cycle %ld: %s\n", i, error ? error : "unknown error");
            return 1;
        }
    }
    atomic_store(&cycling_done, 1);
    for (int i = 0; i < workers; i++)
        pthread_join(tids[i], NULL);
    printf("dl_stress: %ld cycles, checksum %016llx\n", cycles, (unsigned long long)total);
    return 0;
}
