/*
 * timeline_data.c - a CPU tab's samples by bucket of time and call tree
 * node; see timeline_data.h.
 *
 * Owns: the width of the buckets and the summing of samples into them.
 * Never: changes the profile, or writes a sample the call tree left out.
 */
#include "timeline_data.h"

#include <stdint.h>
#include <stdlib.h>

#include "json_numbers.h"
#include "sample_times.h"

/* A bucket's weight on one node: key is bucket << 32 | node. */
struct cell {
    uint64_t key;
    int64_t weight;
};

/* The narrowest round width (1, 2 or 5 times a power of ten ms, 10 ms or
 * more) that cuts span_us into at most TIMELINE_MAX_BUCKETS buckets. */
static uint64_t bucket_width_us(uint64_t span_us)
{
    static const uint64_t steps[] = {1, 2, 5};
    for (uint64_t scale = 10000;; scale *= 10)
        for (size_t i = 0; i < 3; i++)
            if (span_us / (steps[i] * scale) < TIMELINE_MAX_BUCKETS)
                return steps[i] * scale;
}

static int by_key(const void *a, const void *b)
{
    const struct cell *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* The samples as cells, sorted and summed by key; returns how many. */
static size_t sum_cells(const struct stoke_profile *p, const struct call_tree *tree,
                        uint64_t start_us, uint64_t width_us, struct cell *cells)
{
    size_t n = 0;
    for (size_t i = 0; i < p->samples.n; i++) {
        const struct stoke_sample *s = &p->samples.at[i];
        uint64_t at_us = s->time_ns / 1000;
        if (s->stack >= tree->nstacks || tree->stack_node[s->stack] == UINT32_MAX ||
            at_us < start_us)
            continue;
        uint64_t bucket = (at_us - start_us) / width_us;
        cells[n++] = (struct cell){bucket << 32 | tree->stack_node[s->stack], s->weight};
    }
    qsort(cells, n, sizeof *cells, by_key);
    size_t summed = 0;
    for (size_t i = 0; i < n; i++) {
        if (summed && cells[summed - 1].key == cells[i].key)
            cells[summed - 1].weight += cells[i].weight;
        else
            cells[summed++] = cells[i];
    }
    return summed;
}

/* offsets[b] for every bucket b, and the end of the last. */
static void write_offsets(FILE *out, const struct cell *cells, size_t n, uint64_t nbuckets)
{
    fputs(",\"offsets\":[0", out);
    size_t i = 0;
    for (uint64_t b = 0; b < nbuckets; b++) {
        while (i < n && cells[i].key >> 32 == b)
            i++;
        fputc(',', out);
        write_u64(out, i);
    }
    fputc(']', out);
}

static void write_cells(FILE *out, const struct cell *cells, size_t n)
{
    fputs(",\n\"node\":[", out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        write_u64(out, (uint32_t)cells[i].key);
    }
    fputs("],\n\"weight\":[", out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        write_i64(out, cells[i].weight);
    }
    fputc(']', out);
}

int timeline_data_write(FILE *out, const struct stoke_profile *p, const struct call_tree *tree)
{
    if (!p->samples.n)
        return 0;
    uint64_t start_us = stoke_profile_start_ns(p) / 1000, end_us = stoke_profile_end_ns(p) / 1000;
    uint64_t width_us = bucket_width_us(end_us - start_us);
    uint64_t nbuckets = (end_us - start_us) / width_us + 1;
    struct cell *cells = malloc(p->samples.n * sizeof *cells);
    if (!cells)
        return -1;
    size_t n = sum_cells(p, tree, start_us, width_us, cells);
    fputs(",\n\"timeline\":{\"start_us\":", out);
    write_u64(out, start_us);
    fputs(",\"end_us\":", out);
    write_u64(out, end_us);
    fputs(",\"bucket_us\":", out);
    write_u64(out, width_us);
    write_offsets(out, cells, n, nbuckets);
    write_cells(out, cells, n);
    fputc('}', out);
    free(cells);
    return 0;
}
