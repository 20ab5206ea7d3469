/*
 * plugin.c - libplugin.so, the library the dlopen tests load at run
 * time: plugin_crunch spins for a while (long enough to be sampled),
 * plugin_checksum is a quick deterministic call for load/unload loops.
 * Never keeps state between calls.
 */
#include <stdint.h>

#include "cpu_spin.h"

__attribute__((visibility("default"), noipa)) uint64_t plugin_crunch(unsigned ms)
{
    return spin_cpu_ms(ms, ms);
}

__attribute__((visibility("default"), noipa)) uint64_t plugin_checksum(uint64_t x)
{
    for (int i = 0; i < 64; i++)
        x = (x ^ (x >> 31)) * 0x94d049bb133111ebull;
    return x;
}
