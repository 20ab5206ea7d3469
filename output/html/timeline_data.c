/*
 * timeline_data.c - a tab's values by bucket of time and call tree node;
 * see timeline_data.h.
 *
 * Owns: the report's grid of buckets, and the summing of samples and of
 * the live heap's changes into them.
 * Never: changes the profile, or writes a value the call tree left out.
 */
#include "timeline_data.h"

#include <stdlib.h>

#include "heap_timeline.h"
#include "json_numbers.h"
#include "live_heap_data.h"
#include "sample_times.h"
#include "time_cells.h"

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

static void widen(uint64_t *start_ns, uint64_t *end_ns, uint64_t t_ns)
{
    if (!*start_ns || t_ns < *start_ns)
        *start_ns = t_ns;
    if (t_ns > *end_ns)
        *end_ns = t_ns;
}

/* When p's times begin and end (ns); 0 when it has none. */
static int profile_times(const struct stoke_profile *p, uint64_t *start_ns, uint64_t *end_ns)
{
    if (!p->samples.n && !stoke_has_heap_timeline(p))
        return 0;
    *start_ns = stoke_profile_start_ns(p);
    *end_ns = stoke_profile_end_ns(p);
    const struct stoke_heap_timeline *t = &p->heap_timeline;
    for (size_t i = 0; i < t->nmoments; i++)
        widen(start_ns, end_ns, t->moments[i].time_ns);
    for (size_t i = 0; i < t->nchanges; i++)
        widen(start_ns, end_ns, t->changes[i].time_ns);
    return 1;
}

struct timeline_grid timeline_grid_of(const struct stoke_report_tab *tabs, size_t ntabs)
{
    uint64_t start_ns = 0, end_ns = 0;
    for (size_t t = 0; t < ntabs; t++) {
        uint64_t s, e;
        if (profile_times(tabs[t].profile, &s, &e)) {
            widen(&start_ns, &end_ns, s);
            widen(&start_ns, &end_ns, e);
        }
    }
    struct timeline_grid g = {start_ns / 1000, end_ns / 1000, 0, 0};
    if (start_ns) {
        g.width_us = bucket_width_us(g.end_us - g.start_us);
        g.nbuckets = (g.end_us - g.start_us) / g.width_us + 1;
    }
    return g;
}

uint64_t timeline_bucket_of(const struct timeline_grid *g, uint64_t time_ns)
{
    uint64_t at_us = time_ns / 1000;
    if (at_us < g->start_us || (at_us - g->start_us) / g->width_us >= g->nbuckets)
        return UINT64_MAX;
    return (at_us - g->start_us) / g->width_us;
}

/* A cell of weight at a moment on a stack, unless the moment is off the
 * grid or the tree left the stack out; returns how many (0 or 1). */
static size_t cell_at(const struct timeline_grid *g, const struct call_tree *tree, uint64_t time_ns,
                      uint32_t stack, int64_t weight, struct time_cell *cell)
{
    uint64_t bucket = timeline_bucket_of(g, time_ns);
    if (bucket == UINT64_MAX || stack >= tree->nstacks || tree->stack_node[stack] == UINT32_MAX)
        return 0;
    *cell = (struct time_cell){time_cell_key(bucket, tree->stack_node[stack]), weight};
    return 1;
}

/* The samples, or else the live heap's changes, as cells, summed by key;
 * returns how many. */
static size_t sum_cells(const struct stoke_profile *p, const struct call_tree *tree,
                        const struct timeline_grid *g, struct time_cell *cells)
{
    size_t n = 0;
    for (size_t i = 0; i < p->samples.n; i++) {
        const struct stoke_sample *s = &p->samples.at[i];
        n += cell_at(g, tree, s->time_ns, s->stack, s->weight, &cells[n]);
    }
    const struct stoke_heap_timeline *t = &p->heap_timeline;
    for (size_t i = 0; !p->samples.n && i < t->nchanges; i++) {
        const struct stoke_heap_change *c = &t->changes[i];
        n += cell_at(g, tree, c->time_ns, c->stack, c->live_bytes, &cells[n]);
    }
    return time_cells_merge(cells, n, 0);
}

/* offsets[b] for every bucket b, and the end of the last. */
static void write_offsets(FILE *out, const struct time_cell *cells, size_t n, uint64_t nbuckets)
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

static void write_cells(FILE *out, const struct time_cell *cells, size_t n)
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
        write_i64(out, cells[i].value);
    }
    fputc(']', out);
}

int timeline_data_write(FILE *out, const struct stoke_profile *p, const struct call_tree *tree,
                        const struct timeline_grid *grid)
{
    size_t most = p->samples.n ? p->samples.n : p->heap_timeline.nchanges;
    if (!grid->nbuckets || (!p->samples.n && !stoke_has_heap_timeline(p)))
        return 0;
    struct time_cell *cells = malloc((most ? most : 1) * sizeof *cells);
    if (!cells)
        return -1;
    size_t n = sum_cells(p, tree, grid, cells);
    fputs(",\n\"timeline\":{\"start_us\":", out);
    write_u64(out, grid->start_us);
    fputs(",\"end_us\":", out);
    write_u64(out, grid->end_us);
    fputs(",\"bucket_us\":", out);
    write_u64(out, grid->width_us);
    write_offsets(out, cells, n, grid->nbuckets);
    write_cells(out, cells, n);
    free(cells);
    int rc = stoke_has_heap_timeline(p) ? live_heap_data_write(out, p, grid) : 0;
    fputc('}', out);
    return rc;
}
