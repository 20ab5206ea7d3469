/*
 * index_table.h - an open-addressing hash index of positions in some array
 * (the profile's strings, frames and stacks; a heap snapshot's classes):
 * the caller keeps the entries, hashes them and compares candidates.
 *
 * Never: holds or compares the entries themselves.
 */
#ifndef STOKE_INDEX_TABLE_H
#define STOKE_INDEX_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct stoke_index_table {
    uint32_t *slots;  /* index + 1; 0 = empty */
    uint64_t *hashes; /* hash of the entry in each slot */
    size_t cap;       /* power of two; kept at most half full */
    size_t count;
};

/* Adds index under hash (an index may be added once). */
void stoke_index_table_add(struct stoke_index_table *t, uint64_t hash, uint32_t index);

/* Walks the indices added under hash: call with *pos = SIZE_MAX first;
 * returns the next candidate, or -1 when there are none left. */
int64_t stoke_index_table_next(const struct stoke_index_table *t, uint64_t hash, size_t *pos);

void stoke_index_table_free(struct stoke_index_table *t);

#endif
