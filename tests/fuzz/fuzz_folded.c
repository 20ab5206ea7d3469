/*
 * fuzz_folded.c - libFuzzer target: the input is a folded-stacks file (the
 * text of flamegraph.pl, stackcollapse-perf.pl, py-spy, async-profiler),
 * read as `stoke report FILE` reads one and written in every output format.
 */
#include <stddef.h>
#include <stdint.h>
#include "folded_input.h"
#include "fuzz_file.h"
#include "load_and_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    const char *path = fuzz_file(data, size);
    stoke_is_folded_file(path);
    struct stoke_profile *p = stoke_read_folded(path, err, sizeof err);
    if (p) {
        write_every_format(p);
        stoke_profile_free(p);
    }
    return 0;
}
