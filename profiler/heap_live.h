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

#include <stdatomic.h>
#include <stdint.h>

#include "heap_stacks.h"

struct live_allocation {
    uintptr_t address;
    uint64_t size;
    uint64_t bytes;            /* estimated bytes it stands for */
    uint64_t objects;          /* estimated objects it stands for */
    struct heap_stack *stack;
};

/* The counting filter: one counter per 16-byte slot of addresses, modulo
 * its size. Zero means no sampled allocation lives there, so free can skip
 * the tables. It is indexed by the address itself, not a hash, so frees of
 * neighbouring blocks touch the same cache lines: 32 KiB, mostly in L1. A
 * counter that reaches its maximum stays there (and stays "maybe"). */
#define HEAP_LIVE_FILTER_SLOTS (1u << 14)
#define HEAP_LIVE_FILTER_STUCK 0xffffu
extern _Atomic uint16_t heap_live_filter[HEAP_LIVE_FILTER_SLOTS];

static inline _Atomic uint16_t *heap_live_filter_slot(uintptr_t address)
{
    return &heap_live_filter[(address >> 4) & (HEAP_LIVE_FILTER_SLOTS - 1)];
}

/* 0 when address is certainly not a live sampled allocation. */
static inline int heap_live_maybe(uintptr_t address)
{
    return atomic_load_explicit(heap_live_filter_slot(address), memory_order_relaxed) != 0;
}

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
