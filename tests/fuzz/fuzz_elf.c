/*
 * fuzz_elf.c - libFuzzer target: the input is an ELF file, as a trace may
 * name any file as a module: opened through libdwfl, its build-id read and
 * addresses named (symbol table and DWARF inline chains).
 */
#include <stdint.h>
#include <string.h>
#include "debuginfo.h"
#include "fuzz_file.h"

#define MAX_FRAMES 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct stoke_debuginfo *d = stoke_debuginfo_open("fuzz", fuzz_file(data, size), -1);
    if (!d)
        return 0;
    const uint8_t *id;
    stoke_debuginfo_build_id(d, &id);
    struct stoke_debuginfo_frame frames[MAX_FRAMES];
    static const uint64_t addresses[] = {0, 0x400, 0x1000, 0x1139, 0x401000, UINT64_MAX};
    for (size_t i = 0; i < sizeof addresses / sizeof *addresses; i++)
        stoke_debuginfo_lookup(d, addresses[i], frames, MAX_FRAMES);
    uint64_t last = 0; /* and one the input chooses: its last bytes */
    memcpy(&last, data + size - (size < sizeof last ? size : sizeof last),
           size < sizeof last ? size : sizeof last);
    stoke_debuginfo_lookup(d, last, frames, MAX_FRAMES);
    stoke_debuginfo_close(d);
    return 0;
}
