/*
 * fuzz_records.c - libFuzzer target: the input is the decompressed record
 * stream of a trace (what follows the file header once zstd has decoded
 * it), which this target compresses into one frame behind a valid header,
 * so mutations reach the record decoder and the loader rather than zstd's
 * checksums. Read the way `stoke report` reads a trace (load_and_write.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "fuzz_file.h"
#include "load_and_write.h"
#include "stoke_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap = STOKE_FILE_HEADER_LEN + ZSTD_compressBound(size);
    uint8_t *trace = calloc(1, cap);
    if (!trace)
        return 0;
    memcpy(trace, STOKE_MAGIC, STOKE_MAGIC_LEN);
    trace[8] = STOKE_FORMAT_MAJOR & 0xff;
    trace[9] = STOKE_FORMAT_MAJOR >> 8;
    trace[10] = STOKE_FORMAT_MINOR & 0xff;
    trace[11] = STOKE_FORMAT_MINOR >> 8;
    size_t n = ZSTD_compress(trace + STOKE_FILE_HEADER_LEN, cap - STOKE_FILE_HEADER_LEN, data,
                             size, 1);
    if (!ZSTD_isError(n))
        load_and_write(fuzz_file(trace, STOKE_FILE_HEADER_LEN + n));
    free(trace);
    return 0;
}
