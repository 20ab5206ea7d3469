/*
 * heap_live.h - the sampled allocations that are still live, by address,
 * so that free can find what it releases.
 *
 * Most frees are of allocations that were not sampled; a counting filter
 * answers those without a lock. The rest are in 64 sharded hash tables.
 * Called from malloc hooks: no malloc, only short per-shard locks.
 */
#ifndef STOKE_AGENT_HEAP_LIVE_H
#define STOKE_AGENT_HEAP_LIVE_H

#include <stdint.h>

#include "heap_stacks.h"

struct live_allocation {
    uintptr_t address;
    uint64_t size;
    uint64_t bytes;            /* estimated bytes it stands for */
    uint64_t objects;          /* estimated objects it stands for */
    struct heap_stack *stack;
};

/* Records a live sampled allocation. Returns 0, or -1 when out of memory
 * (the allocation is then not tracked). */
int heap_live_insert(const struct live_allocation *a);

/* Removes the allocation at address into *out. Returns 0, or -1 when the
 * address was not sampled. */
int heap_live_remove(uintptr_t address, struct live_allocation *out);

void heap_live_fork_prepare(void);
void heap_live_fork_parent(void);
void heap_live_fork_child(void);

#endif
