/*
 * live_heap_data.c - each process's live heap by bucket of time; see
 * live_heap_data.h.
 *
 * Owns: keeping each bucket's peak, and the lanes' layout.
 * Never: writes a moment off the grid, or a process without moments.
 */
#include "live_heap_data.h"

#include <stdlib.h>

#include "json_numbers.h"
#include "time_cells.h"

/* The moments as cells keyed by process and bucket, each bucket's peak
 * kept; returns how many. */
static size_t peak_cells(const struct stoke_profile *p, const struct timeline_grid *g,
                         struct time_cell *cells)
{
    const struct stoke_heap_timeline *t = &p->heap_timeline;
    size_t n = 0;
    for (size_t i = 0; i < t->nmoments; i++) {
        const struct stoke_heap_moment *m = &t->moments[i];
        uint64_t bucket = timeline_bucket_of(g, m->time_ns);
        int64_t bytes = m->live_bytes > INT64_MAX ? INT64_MAX : (int64_t)m->live_bytes;
        if (bucket != UINT64_MAX)
            cells[n++] = (struct time_cell){time_cell_key(m->process, (uint32_t)bucket), bytes};
    }
    return time_cells_merge(cells, n, 1);
}

/* One process's lane: cells[first..end) share its key's high half. */
static void write_lane(FILE *out, const struct time_cell *cells, size_t first, size_t end)
{
    fputs("{\"process\":", out);
    write_u64(out, cells[first].key >> 32);
    fputs(",\"bucket\":[", out);
    for (size_t i = first; i < end; i++) {
        if (i > first)
            fputc(',', out);
        write_u64(out, (uint32_t)cells[i].key);
    }
    fputs("],\"bytes\":[", out);
    for (size_t i = first; i < end; i++) {
        if (i > first)
            fputc(',', out);
        write_i64(out, cells[i].value);
    }
    fputs("]}", out);
}

int live_heap_data_write(FILE *out, const struct stoke_profile *p, const struct timeline_grid *g)
{
    size_t most = p->heap_timeline.nmoments;
    struct time_cell *cells = malloc((most ? most : 1) * sizeof *cells);
    if (!cells)
        return -1;
    size_t n = peak_cells(p, g, cells);
    fputs(",\n\"live_heap\":[", out);
    for (size_t first = 0, end; first < n; first = end) {
        for (end = first + 1; end < n && cells[end].key >> 32 == cells[first].key >> 32; end++)
            ;
        if (first)
            fputc(',', out);
        write_lane(out, cells, first, end);
    }
    fputc(']', out);
    free(cells);
    return 0;
}
