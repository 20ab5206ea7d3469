/*
 * heap_stacks.h - allocation stacks and their heap counters.
 *
 * Each distinct allocation stack gets an id and four counters (estimated
 * live bytes and objects, allocated bytes and objects since start), updated
 * by the malloc hooks (heap_counter_add). A snapshot reads the counters of
 * every stack; it never walks the live allocations. Called from malloc
 * hooks: no malloc, only short per-shard locks.
 */
#ifndef STOKE_AGENT_HEAP_STACKS_H
#define STOKE_AGENT_HEAP_STACKS_H

#include <stdatomic.h>
#include <stdint.h>

struct heap_stack {
    uint32_t id;
    uint32_t nframes;
    uint32_t flags;
    uint64_t hash;
    const uint64_t *frames;    /* raw return addresses, caller of malloc first */
    const uint32_t *modules;   /* module id per frame (0: none) */
    const uint64_t *offsets;   /* address - load bias, or the address itself */
    _Atomic int64_t live_bytes, live_objects;
    _Atomic int64_t alloc_bytes, alloc_objects; /* never negative */
};

/* Returns the stack for frames[0..n), creating it; NULL when out of memory.
 * Context: hooks. */
struct heap_stack *heap_stacks_intern(const uint64_t *frames, uint32_t n, uint32_t flags);

/* Number of ids handed out, and the stack of an id below it (or NULL).
 * Lock-free.
 * Context: any. */
uint32_t heap_stacks_count(void);
struct heap_stack *heap_stacks_get(uint32_t id);

/* fork: hold / release / re-create the locks.
 * Context: program. */
void heap_stacks_fork_prepare(void);
void heap_stacks_fork_parent(void);
void heap_stacks_fork_child(void);

#endif
