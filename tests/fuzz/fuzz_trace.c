/*
 * fuzz_trace.c - libFuzzer target: the input is a whole trace file (header,
 * zstd frames), read the way `stoke report` reads it (load_and_write.h).
 * Reaches the header check, the zstd stream and damaged tails; records
 * themselves are better reached by fuzz_records.
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_file.h"
#include "load_and_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_and_write(fuzz_file(data, size));
    return 0;
}
