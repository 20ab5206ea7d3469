/*
 * time_cells.h - values keyed by a pair of small numbers (a bucket of time
 * and a call tree node, a process and a bucket), sorted by key and merged
 * so that each key is written once: how the report's timelines are
 * summed before they are written.
 */
#ifndef STOKE_TIME_CELLS_H
#define STOKE_TIME_CELLS_H

#include <stddef.h>
#include <stdint.h>

struct time_cell {
    uint64_t key; /* high << 32 | low */
    int64_t value;
};

static inline uint64_t time_cell_key(uint64_t high, uint32_t low)
{
    return high << 32 | low;
}

/* Sorts cells[0..n) by key and merges cells of one key into one, adding
 * their values (or keeping the largest, with largest); returns how many
 * are left. */
size_t time_cells_merge(struct time_cell *cells, size_t n, int largest);

#endif
