/*
 * time_cells.c - values by key, sorted and merged; see time_cells.h.
 * Never: drops a key.
 */
#include "time_cells.h"

#include <stdlib.h>

static int by_key(const void *a, const void *b)
{
    const struct time_cell *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static int64_t merged(int64_t a, int64_t b, int largest)
{
    if (largest)
        return a > b ? a : b;
    return (int64_t)((uint64_t)a + (uint64_t)b); /* wraps, as the live heap's sums do */
}

size_t time_cells_merge(struct time_cell *cells, size_t n, int largest)
{
    qsort(cells, n, sizeof *cells, by_key);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && cells[kept - 1].key == cells[i].key)
            cells[kept - 1].value = merged(cells[kept - 1].value, cells[i].value, largest);
        else
            cells[kept++] = cells[i];
    }
    return kept;
}
