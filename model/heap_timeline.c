/*
 * heap_timeline.c - the live heap over time; see heap_timeline.h.
 *
 * Owns: growing the lists, adding changes up to a moment, and the whole
 * recording's growth.
 * Never: reads files, or drops a change.
 */
#include "heap_timeline.h"

#include "alloc.h"

void stoke_profile_add_heap_moment(struct stoke_profile *p, const struct stoke_heap_moment *m)
{
    struct stoke_heap_timeline *t = &p->heap_timeline;
    t->moments = stoke_grow(t->moments, &t->moments_cap, t->nmoments + 1, sizeof *t->moments);
    t->moments[t->nmoments++] = *m;
}

void stoke_profile_add_heap_change(struct stoke_profile *p, const struct stoke_heap_change *c)
{
    struct stoke_heap_timeline *t = &p->heap_timeline;
    t->changes = stoke_grow(t->changes, &t->changes_cap, t->nchanges + 1, sizeof *t->changes);
    t->changes[t->nchanges++] = *c;
}

int stoke_has_heap_timeline(const struct stoke_profile *p)
{
    return p->heap_timeline.nmoments > 0;
}

/* *sum += v, wrapping around rather than overflowing: each change is
 * bounded (a reader takes a larger one as damage), their number is not. */
static void add_wrapping(int64_t *sum, int64_t v)
{
    *sum = (int64_t)((uint64_t)*sum + (uint64_t)v);
}

void stoke_heap_live_at(struct stoke_profile *p, uint64_t at_ns)
{
    for (size_t r = 0; r < p->nrows; r++)
        for (size_t v = 0; v < STOKE_MAX_VALUES; v++)
            p->rows[r].values[v] = 0;
    const struct stoke_heap_timeline *t = &p->heap_timeline;
    for (size_t i = 0; i < t->nchanges; i++) {
        const struct stoke_heap_change *c = &t->changes[i];
        if (c->time_ns > at_ns)
            continue;
        add_wrapping(&p->rows[c->stack].values[STOKE_HEAP_LIVE_BYTES], c->live_bytes);
        add_wrapping(&p->rows[c->stack].values[STOKE_HEAP_LIVE_OBJECTS], c->live_objects);
    }
}

void stoke_heap_growth_whole(struct stoke_profile *p)
{
    stoke_heap_live_at(p, UINT64_MAX);
    const char *unit = p->value_units[STOKE_HEAP_LIVE_BYTES];
    for (size_t r = 0; r < p->nrows; r++) {
        int64_t *v = p->rows[r].values;
        v[1] = v[STOKE_HEAP_LIVE_BYTES];
        v[0] = v[2] = v[3] = 0;
    }
    p->nvalues = 2;
    stoke_profile_set_value_type(p, 0, "before", unit);
    stoke_profile_set_value_type(p, 1, "after", unit);
}
