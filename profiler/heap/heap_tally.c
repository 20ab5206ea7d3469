/*
 * heap_tally.c - see heap_tally.h.
 *
 * The weight of an entry is recomputed from its size when it leaves, so the
 * live table holds only address, size and stack id.
 */
#include "heap_tally.h"

#include <math.h>
#include <stdatomic.h>

#include "heap_sharing.h"

static uint64_t interval = 1;
static _Atomic uint64_t untracked;

void heap_tally_start(uint64_t mean_bytes)
{
    interval = mean_bytes ? mean_bytes : 1;
}

struct weight {
    uint64_t bytes, objects; /* objects in HEAP_OBJECT_UNITs */
};

/* What a sampled allocation of size bytes stands for: it was picked with
 * probability 1 - exp(-size/interval). */
static inline struct weight weigh(uint64_t size)
{
    if (interval == 1)
        return (struct weight){size, HEAP_OBJECT_UNIT};
    double probability = -expm1(-(double)size / (double)interval);
    if (probability <= 0)
        probability = 1.0 / (double)interval;
    return (struct weight){(uint64_t)((double)size / probability + 0.5),
                           (uint64_t)(HEAP_OBJECT_UNIT / probability + 0.5)};
}

/* Adds sign times w to the live counts of s and, for a new allocation, w
 * to its allocated counts. */
static void count(struct heap_stack *s, struct weight w, int64_t sign, int allocated)
{
    int shared = heap_shared();
    heap_counter_add(&s->live_bytes, sign * (int64_t)w.bytes, shared);
    heap_counter_add(&s->live_objects, sign * (int64_t)w.objects, shared);
    if (!allocated)
        return;
    heap_counter_add(&s->alloc_bytes, (int64_t)w.bytes, shared);
    heap_counter_add(&s->alloc_objects, (int64_t)w.objects, shared);
}

static void leave(const struct live_allocation *a)
{
    struct heap_stack *s = heap_stacks_get(a->stack_id);
    if (s)
        count(s, weigh(a->size), -1, 0);
}

void heap_tally_untracked(void)
{
    atomic_fetch_add_explicit(&untracked, 1, memory_order_relaxed);
}

static void dropped(const struct live_allocation *a, int lost)
{
    leave(a);
    if (lost)
        heap_tally_untracked();
}

void heap_tally_nursery_flush(void)
{
    heap_live_nursery_flush(dropped);
}

/* Into the live table and the counts of its stack s; an entry it replaces
 * (an address whose free was never seen) leaves the counts. */
static void track(const struct live_allocation *a, struct heap_stack *s, int allocated)
{
    struct live_allocation replaced;
    int found = s ? heap_live_insert(a, &replaced) : -1;
    if (found < 0) {
        heap_tally_untracked();
        return;
    }
    if (found)
        leave(&replaced);
    count(s, weigh(a->size), 1, allocated);
}

void heap_tally_alloc(const struct live_allocation *a, struct heap_stack *stack)
{
    track(a, stack, 1);
}

void heap_tally_restore(const struct live_allocation *a)
{
    track(a, heap_stacks_get(a->stack_id), 0);
}

int heap_tally_free(uintptr_t address, struct live_allocation *gone)
{
    if (heap_live_remove(address, gone))
        return -1;
    leave(gone);
    return 0;
}

/* Totals are the sums over the stacks: the hooks update only the counters
 * of their stack, one cache line, not global ones as well. */
void heap_read_totals(struct heap_totals *t)
{
    int64_t live_bytes = 0, live_units = 0;
    uint64_t alloc_bytes = 0, alloc_units = 0;
    for (uint32_t id = 0, n = heap_stacks_count(); id < n; id++) {
        struct heap_stack *s = heap_stacks_get(id);
        if (!s)
            continue;
        live_bytes += atomic_load_explicit(&s->live_bytes, memory_order_relaxed);
        live_units += atomic_load_explicit(&s->live_objects, memory_order_relaxed);
        alloc_bytes += atomic_load_explicit(&s->alloc_bytes, memory_order_relaxed);
        alloc_units += atomic_load_explicit(&s->alloc_objects, memory_order_relaxed);
    }
    t->live_bytes = live_bytes;
    t->live_objects = live_units > 0 ? (int64_t)heap_objects((uint64_t)live_units) : 0;
    t->alloc_bytes = alloc_bytes;
    t->alloc_objects = heap_objects(alloc_units);
    t->untracked = atomic_load(&untracked);
}
