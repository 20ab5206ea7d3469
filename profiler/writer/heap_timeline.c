/*
 * heap_timeline.c - the live heap over time; see heap_timeline.h.
 *
 * Owns: what the last records said (totals, and each allocation stack's live
 * values and its id in the trace), and the changes since.
 * Never: runs in a hook or a handler, or walks the live allocations (it
 * reads the counters of heap/heap_stacks.h).
 */
#include "heap_timeline.h"

#include <stdlib.h>
#include <string.h>

#include "process_records.h"
#include "stoke_format.h"
#include "heap/heap.h"
#include "heap/heap_stacks.h"
#include "heap/heap_tally.h"

#define NO_TRACE_ID UINT32_MAX

/* What the trace last said of one allocation stack. */
struct stack_said {
    int64_t live_bytes, live_objects;
    uint32_t trace_id; /* its STACK record in this trace, NO_TRACE_ID: none yet */
};

/* A change to write. */
struct change {
    uint32_t trace_id;
    int64_t bytes, objects;
};

static struct {
    uint64_t last_poll_ns;
    struct heap_totals totals;  /* of the last HEAP_TOTALS */
    struct stack_said *said;    /* by heap stack id */
    uint32_t nsaid;
    struct change *changes;     /* scratch of one poll */
    uint32_t changes_cap;
} timeline;

void heap_timeline_reset(void)
{
    free(timeline.said);
    free(timeline.changes);
    memset(&timeline, 0, sizeof timeline);
}

/* Room for what the trace said of n stacks; 0 or -1 (out of memory). */
static int grow_said(uint32_t n)
{
    if (n <= timeline.nsaid)
        return 0;
    struct stack_said *said = realloc(timeline.said, n * sizeof *said);
    struct change *changes = realloc(timeline.changes, n * sizeof *changes);
    if (said)
        timeline.said = said;
    if (changes)
        timeline.changes = changes;
    if (!said || !changes)
        return -1;
    for (uint32_t i = timeline.nsaid; i < n; i++)
        said[i] = (struct stack_said){0, 0, NO_TRACE_ID};
    timeline.nsaid = timeline.changes_cap = n;
    return 0;
}

/* The id of heap stack s in this trace, its STACK record (and the MAPs
 * before it) written the first time; NO_TRACE_ID when out of memory. */
static uint32_t trace_id(const struct heap_timeline_target *t, const struct heap_stack *s,
                         struct stack_said *said, uint64_t time_us)
{
    if (said->trace_id != NO_TRACE_ID)
        return said->trace_id;
    int is_new;
    uint32_t id = stack_intern(t->stacks, s->frames, s->nframes, s->flags, &is_new);
    if (id == UINT32_MAX)
        return NO_TRACE_ID;
    if (is_new) {
        *t->last_module_id = records_new_maps(t->recs, *t->last_module_id, time_us);
        records_stack(t->recs, id, s->flags, s->nframes, s->modules, s->offsets);
    }
    return said->trace_id = id;
}

/* The stacks whose live values changed since the trace last said them, in
 * timeline.changes; returns how many. */
static uint32_t collect_changes(const struct heap_timeline_target *t, uint64_t time_us)
{
    uint32_t n = heap_stacks_count(), count = 0;
    if (grow_said(n))
        n = timeline.nsaid;
    for (uint32_t id = 0; id < n; id++) {
        struct heap_stack *s = heap_stacks_get(id);
        if (!s)
            continue;
        struct stack_said *said = &timeline.said[id];
        int64_t bytes = atomic_load(&s->live_bytes);
        int64_t objects = (int64_t)heap_objects((uint64_t)atomic_load(&s->live_objects));
        if (bytes == said->live_bytes && objects == said->live_objects)
            continue;
        uint32_t tid = trace_id(t, s, said, time_us);
        if (tid == NO_TRACE_ID)
            continue;
        timeline.changes[count++] =
            (struct change){tid, bytes - said->live_bytes, objects - said->live_objects};
        said->live_bytes = bytes;
        said->live_objects = objects;
    }
    return count;
}

static void write_totals(struct records *r, const struct heap_totals *h, uint64_t time_us)
{
    records_begin(r, STOKE_REC_HEAP_TOTALS);
    records_u(r, time_us);
    records_u(r, h->live_bytes > 0 ? (uint64_t)h->live_bytes : 0);
    records_u(r, h->live_objects > 0 ? (uint64_t)h->live_objects : 0);
    records_u(r, h->alloc_bytes);
    records_u(r, h->alloc_objects);
    records_end(r);
}

static void write_growth(struct records *r, uint32_t count, uint64_t time_us)
{
    records_begin(r, STOKE_REC_HEAP_GROWTH);
    records_u(r, time_us);
    records_u(r, count);
    for (uint32_t i = 0; i < count; i++) {
        records_u(r, timeline.changes[i].trace_id);
        records_s(r, timeline.changes[i].bytes);
        records_s(r, timeline.changes[i].objects);
    }
    records_end(r);
}

void heap_timeline_poll(const struct heap_timeline_target *t, uint64_t now_ns, uint64_t time_us,
                        int final)
{
    if (!heap_tracking() ||
        (!final && now_ns - timeline.last_poll_ns < STOKE_HEAP_TIMELINE_MS * 1000000ull))
        return;
    timeline.last_poll_ns = now_ns;
    struct heap_totals h;
    heap_read_totals(&h);
    uint32_t count = collect_changes(t, time_us);
    if (!count && !memcmp(&h, &timeline.totals, sizeof h))
        return;
    write_totals(t->recs, &h, time_us);
    if (count)
        write_growth(t->recs, count, time_us);
    timeline.totals = h;
}
