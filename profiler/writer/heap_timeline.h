/*
 * heap_timeline.h - the live heap over time, in the CPU trace of a process
 * that tracks its heap: every STOKE_HEAP_TIMELINE_MS while it changes, a
 * HEAP_TOTALS record and a HEAP_GROWTH record of what changed by
 * allocation stack since the last one (docs/trace-format.md).
 */
#ifndef STOKE_AGENT_HEAP_TIMELINE_H
#define STOKE_AGENT_HEAP_TIMELINE_H

#include <stdint.h>

#include "records.h"
#include "stack_intern.h"

/* Where the records go and how stacks get their ids: the writer's. */
struct heap_timeline_target {
    struct records *recs;
    struct stack_intern *stacks;
    uint32_t *last_module_id; /* MAP records written so far (records_new_maps) */
};

/* Writes what changed since the last call, when STOKE_HEAP_TIMELINE_MS have
 * passed since then (or always, with final). now_ns: the monotonic clock;
 * time_us: since the process started. Nothing while the heap is not
 * tracked.
 * Context: writer. */
void heap_timeline_poll(const struct heap_timeline_target *t, uint64_t now_ns, uint64_t time_us,
                        int final);

/* A new trace (a fork child's, or the next after a failed exec) or a new
 * part of one: the first records hold the whole live heap again.
 * Context: program, writer. */
void heap_timeline_reset(void);

#endif
