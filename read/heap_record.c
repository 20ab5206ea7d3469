/*
 * heap_record.c - decodes the HEAP record and names the heap values; see
 * heap_record.h.
 *
 * Owns: the field order of HEAP and the names and units of the four heap
 * values.
 * Never: decides whether a file may join a profile (trace_load.c does).
 */
#include "heap_record.h"

static const struct {
    const char *name, *unit;
} heap_values[STOKE_HEAP_NVALUES] = {
    [STOKE_HEAP_LIVE_BYTES] = {"live_bytes", "bytes"},
    [STOKE_HEAP_LIVE_OBJECTS] = {"live_objects", "count"},
    [STOKE_HEAP_ALLOC_BYTES] = {"alloc_bytes", "bytes"},
    [STOKE_HEAP_ALLOC_OBJECTS] = {"alloc_objects", "count"},
};

int stoke_decode_heap(struct stoke_fields *f, struct stoke_heap_summary *s)
{
    s->sequence = stoke_field_u(f);
    s->trigger = (int)stoke_field_u(f);
    s->time_us = stoke_field_u(f);
    s->realtime_ns = stoke_field_u(f);
    s->sample_interval = stoke_field_u(f);
    s->live_bytes = stoke_field_u(f);
    s->live_objects = stoke_field_u(f);
    s->alloc_bytes = stoke_field_u(f);
    s->alloc_objects = stoke_field_u(f);
    s->untracked = stoke_field_u(f);
    return f->bad ? -1 : 0;
}

void stoke_make_heap_profile(struct stoke_profile *p)
{
    p->kind = STOKE_PROFILE_HEAP;
    p->period_ns = 0;
    for (size_t i = 0; i < STOKE_HEAP_NVALUES; i++)
        stoke_profile_set_value_type(p, i, heap_values[i].name, heap_values[i].unit);
}
