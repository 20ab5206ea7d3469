/*
 * records.h - builds trace records (include/stoke_format.h) in memory:
 * a growable buffer of whole records, filled by the writer thread and
 * handed to trace_file_write_frame as one zstd frame.
 */
#ifndef STOKE_AGENT_RECORDS_H
#define STOKE_AGENT_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#define RECORD_MAX_PAYLOAD 65536

struct records {
    uint8_t *data;
    size_t len, cap;
    int failed;                 /* out of memory: records were dropped */
    uint8_t payload[RECORD_MAX_PAYLOAD];
    size_t payload_len;
    int type;
};

/* One record: begun with its type, its fields in order (unsigned and
 * signed varints, bytes and strings as a length and the bytes), ended,
 * which appends it whole, or drops it and sets failed when out of memory.
 * Context: writer. */
void records_begin(struct records *r, int type);
void records_u(struct records *r, uint64_t v);
void records_s(struct records *r, int64_t v);
void records_bytes(struct records *r, const void *p, size_t n);
void records_str(struct records *r, const char *s);
void records_end(struct records *r);

/* Empties the buffer (it keeps its memory).
 * Context: writer. */
void records_clear(struct records *r);

/* Frees the buffer's memory (the writer's trace starts anew).
 * Context: program. */
void records_free(struct records *r);

#endif
