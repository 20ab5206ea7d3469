/*
 * heap_tally.h - what a tracked allocation adds to the heap's numbers: its
 * entry in the live table and the four counts of its stack (estimated live
 * bytes and objects, allocated bytes and objects), weighed by the sampling
 * interval. Called from the hooks.
 */
#ifndef STOKE_AGENT_HEAP_TALLY_H
#define STOKE_AGENT_HEAP_TALLY_H

#include <stdint.h>

#include "heap_live.h"
#include "heap_stacks.h"

/* Object counts are kept in 1/1024 units, so that the weights of large
 * sampled allocations (1.58 objects for a 512 KiB block) do not round
 * away; heap_objects rounds them to whole objects. */
#define HEAP_OBJECT_UNIT 1024

/* Context: any. */
static inline uint64_t heap_objects(uint64_t units)
{
    return (units + HEAP_OBJECT_UNIT / 2) / HEAP_OBJECT_UNIT;
}

struct heap_totals {
    int64_t live_bytes, live_objects;
    uint64_t alloc_bytes, alloc_objects;
    uint64_t untracked; /* sampled allocations the tables had no room for */
};

/* The mean sampling interval in bytes (1: every allocation, weight 1).
 * Context: program. */
void heap_tally_start(uint64_t interval);

/* A new allocation of the stack a->stack_id is: live and allocated.
 * Context: hooks. */
void heap_tally_alloc(const struct live_allocation *a, struct heap_stack *stack);

/* Live again, not allocated again: a block taken out for a realloc that
 * failed.
 * Context: hooks. */
void heap_tally_restore(const struct live_allocation *a);

/* A free of address: out of the table and its stack's live counts, copied
 * to *gone. Returns 0, or -1 when address was not tracked.
 * Context: hooks. */
int heap_tally_free(uintptr_t address, struct live_allocation *gone);

/* An allocation that could not be tracked (no memory, no stack).
 * Context: hooks. */
void heap_tally_untracked(void);

/* The switch to shared tables (heap_sharing.h): the nursery's entries move
 * into the tables; what they replace or cannot hold leaves the counts.
 * Context: hooks, program. */
void heap_tally_nursery_flush(void);

/* Sums over all stacks; objects rounded to whole ones.
 * Context: writer. */
void heap_read_totals(struct heap_totals *t);

#endif
