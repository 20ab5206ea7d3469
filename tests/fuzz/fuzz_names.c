/*
 * fuzz_names.c - libFuzzer target: the input is a recording's name store
 * (stoke-names.zst, which travels with a recording from machine to
 * machine), read and looked up at every address it holds.
 */
#include <stdint.h>
#include "fuzz_file.h"
#include "name_store.h"
#include "name_store_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[256];
    struct stoke_name_store *s = stoke_name_store_new();
    stoke_name_store_read(fuzz_file(data, size), s, why, sizeof why);
    for (size_t i = 0; i < stoke_name_store_count(s); i++) {
        struct stoke_debuginfo_frame frames[STOKE_NAME_STORE_MAX_FRAMES];
        size_t build, n;
        uint64_t addr;
        const uint8_t *id;
        stoke_name_store_entry(s, i, &build, &addr, &n);
        size_t len = stoke_name_store_build_id(s, build, &id);
        stoke_name_store_find(s, id, len, addr, frames, STOKE_NAME_STORE_MAX_FRAMES);
    }
    stoke_name_store_free(s);
    return 0;
}
