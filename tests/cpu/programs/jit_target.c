/*
 * jit_target.c - a stand-in for a JIT: copies a tiny countdown loop into an
 * anonymous executable page, lists it in /tmp/perf-<pid>.map as
 * jit_spin_loop (the file JIT runtimes write for profilers), and spends
 * its CPU time running it. No ELF file covers that code: only the map
 * file can name it. The map file is left for the report; the test removes
 * it.
 *
 * usage: jit_target MS
 * Never reads input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu_spin.h"

#define RUN_ITERATIONS 1000000ull /* countdown steps per call, well under 1 ms */

/* void loop(uint64_t n): counts n down to zero, then returns. */
#if defined(__x86_64__)
static const uint8_t countdown_code[] = {
    0x48, 0xff, 0xcf, /* 0: dec %rdi        */
    0x75, 0xfb,       /* 3: jnz 0           */
    0xc3,             /* 5: ret             */
};
#elif defined(__aarch64__)
static const uint32_t countdown_code[] = {
    0xf1000400, /* 0: subs x0, x0, #1 */
    0x54ffffe1, /* 4: b.ne 0          */
    0xd65f03c0, /* 8: ret             */
};
#else
#error "jit_target knows the countdown loop's machine code for x86-64 and aarch64 only"
#endif

typedef void (*countdown_fn)(uint64_t);

static countdown_fn place_code(void)
{
    long page = sysconf(_SC_PAGESIZE);
    void *region = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED)
        return NULL;
    memcpy(region, countdown_code, sizeof countdown_code);
    __builtin___clear_cache((char *)region, (char *)region + sizeof countdown_code);
    if (mprotect(region, (size_t)page, PROT_READ | PROT_EXEC))
        return NULL;
    return (countdown_fn)region;
}

static int write_perf_map(countdown_fn code)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    FILE *map = fopen(path, "w");
    if (!map)
        return -1;
    fprintf(map, "%llx %zx jit_spin_loop\n", (unsigned long long)(uintptr_t)code,
            sizeof countdown_code);
    return fclose(map);
}

static __attribute__((noipa)) void run_jit_code(countdown_fn code, unsigned ms)
{
    uint64_t deadline = thread_cpu_ns() + ms * 1000000ull;
    while (thread_cpu_ns() < deadline)
        code(RUN_ITERATIONS);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: jit_target MS\n");
        return 2;
    }
    countdown_fn code = place_code();
    if (!code || write_perf_map(code)) {
        perror("jit_target: cannot place the code or write its perf map");
        return 1;
    }
    run_jit_code(code, (unsigned)atoi(argv[1]));
    printf("jit_target: pid %d\n", (int)getpid());
    return 0;
}
