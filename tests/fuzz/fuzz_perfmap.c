/*
 * fuzz_perfmap.c - libFuzzer target: the input is a perf-<pid>.map file
 * (JIT runtimes write them to /tmp, where any user can), loaded and looked
 * up at the addresses its own first bytes and its listed starts name.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_file.h"
#include "perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct stoke_perfmap_status status;
    struct stoke_perfmap *m = stoke_perfmap_load(fuzz_file(data, size), geteuid(), &status);
    if (!m)
        return 0;
    uint64_t addr = 0;
    memcpy(&addr, data, size < sizeof addr ? size : sizeof addr);
    static const uint64_t fixed[] = {0, 1, 0x1000, 0x7fffffffffffffffull, UINT64_MAX};
    stoke_perfmap_lookup(m, addr);
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        stoke_perfmap_lookup(m, fixed[i]);
    stoke_perfmap_free(m);
    return 0;
}
