/*
 * reader.h - reads a stoke trace file: checks its header, decompresses its
 * zstd frames and hands every complete record to a callback.
 *
 * A damaged tail (a truncated file, a corrupted frame, a record cut short)
 * ends the reading, not the data: every complete record decoded before the
 * damage is delivered, and the status says how many compressed bytes could
 * not be read.
 *
 * Never: interprets record payloads (trace_load.c does), or prints.
 */
#ifndef STOKE_READER_H
#define STOKE_READER_H

#include <stddef.h>
#include <stdint.h>

struct stoke_read_status {
    unsigned major, minor;    /* format version from the file header */
    uint64_t file_bytes;      /* size of the file */
    uint64_t records;         /* records delivered */
    int damaged;              /* 1 if the tail was truncated or corrupted */
    int corrupted;            /* 1 if damaged by bytes that do not decode,
                                 0 if the file just ends too early */
    /* compressed bytes that did not decode into complete records: from the
     * end of the last frame read whole (with no record cut at its end) to
     * the end of the file; 0 when the trace is whole */
    uint64_t bytes_lost;
};

/* Called for each record; payload[0..len) is valid only during the call.
 * Unknown types reach the callback too (the caller skips them). Returning
 * non-zero stops the reading early (not an error for the reader). */
typedef int (*stoke_record_fn)(void *ctx, unsigned type, const uint8_t *payload, size_t len);

/* Reads the trace at path. Returns 0 when the header was valid (status
 * filled, even if the tail was damaged), -1 when the file cannot be used at
 * all (missing, empty, not a stoke trace, a newer major version); err then
 * holds one line naming the file and what to do. */
int stoke_read_trace(const char *path, stoke_record_fn on_record, void *ctx,
                     struct stoke_read_status *status, char *err, size_t errlen);

#endif
