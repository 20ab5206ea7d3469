/*
 * frame_table.h - the frames of every tab of a report in one table, each
 * distinct frame once (tabs of one run share most of their functions), with
 * its strings as indices into the report's string pool. A tab's call tree
 * refers to frames by their index here.
 */
#ifndef STOKE_FRAME_TABLE_H
#define STOKE_FRAME_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* One frame with its strings interned: what makes two frames the same. */
struct frame_key {
    uint32_t name, module, file; /* string pool indices */
    uint32_t line, column;
    uint8_t kind, inlined, tier;
};

struct frame_table {
    struct frame_key *frames; /* frames[i] is the frame of index i */
    size_t count;
    uint32_t *slots;          /* open addressing: index + 1, 0 = empty */
    size_t nslots;            /* a power of two */
};

void frame_table_init(struct frame_table *t);
void frame_table_free(struct frame_table *t);

/* Index of the frame equal to *k, added if new; -1 when out of memory. */
int64_t frame_table_intern(struct frame_table *t, const struct frame_key *k);

#endif
