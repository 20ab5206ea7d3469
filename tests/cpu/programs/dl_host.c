/*
 * dl_host.c - loads a library with dlopen after it started, spends most of
 * its CPU time in the library's plugin_crunch, unloads it with dlclose, and
 * does that ROUNDS times (each load a new mapping of the library), then
 * spins a little more in host_after_unload, so the library's code is gone
 * before the process ends.
 *
 * usage: dl_host LIBRARY MS ROUNDS   (MS of CPU in the library in all)
 * Never reads input or writes files.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_spin.h"

#define AFTER_UNLOAD_MS 100

static volatile uint64_t sink;

static __attribute__((noipa)) void host_after_unload(void)
{
    sink = spin_cpu_ms(2, AFTER_UNLOAD_MS);
}

/* Loads the library, runs plugin_crunch for ms, unloads it. Returns 0, or
 * -1 after printing the loader's message. */
static int load_run_unload(const char *path, unsigned ms)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "dl_host: %s\n", dlerror());
        return -1;
    }
    uint64_t (*crunch)(unsigned) = (uint64_t (*)(unsigned))dlsym(library, "plugin_crunch");
    if (!crunch) {
        fprintf(stderr, "dl_host: %s\n", dlerror());
        dlclose(library);
        return -1;
    }
    sink = crunch(ms);
    dlclose(library);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: dl_host LIBRARY MS ROUNDS\n");
        return 2;
    }
    unsigned ms = (unsigned)atoi(argv[2]), rounds = (unsigned)atoi(argv[3]);
    for (unsigned i = 0; i < rounds; i++)
        if (load_run_unload(argv[1], ms / rounds))
            return 1;
    host_after_unload();
    printf("dl_host: library loaded, run and unloaded %u times\n", rounds);
    return 0;
}
