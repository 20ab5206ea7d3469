/*
 * heap_live.h - the sampled allocations that are still live, by address,
 * so that free can find what it releases.
 *
 * Most frees are of allocations that were not sampled; a filter answers
 * those without a lock. The rest are in 64 sharded hash tables.
 * Called from malloc hooks: no malloc, only short per-shard spinlocks.
 */
#ifndef STOKE_AGENT_HEAP_LIVE_H
#define STOKE_AGENT_HEAP_LIVE_H

#include <stdatomic.h>
#include <stdint.h>

#include "heap_stacks.h"

/* 16 bytes, so the tables of exact mode stay small enough for the caches:
 * what an allocation stands for (its weight) follows from its size. */
struct live_allocation {
    uintptr_t address;
    uint64_t size : 40;
    uint64_t stack_id : 24;
};

#define HEAP_LIVE_MAX_SIZE ((1ull << 40) - 1)
#define HEAP_LIVE_MAX_STACK_ID ((1u << 24) - 1)

/* The filter: one bit per 16-byte slot of addresses, modulo its size, set
 * while a sampled allocation lives in that slot. A clear bit means free can
 * skip the tables. It is indexed by the address itself, not a hash, and is
 * 2 KiB: the hot path of every free reads it, so it must stay in L1. (The
 * counts behind the bits are heap_live.c's own.) */
#define HEAP_LIVE_FILTER_SLOTS (1u << 14)
extern _Atomic uint64_t heap_live_filter[HEAP_LIVE_FILTER_SLOTS / 64];

/* The slot of address in the filter.
 * Context: any. */
static inline uint32_t heap_live_filter_slot(uintptr_t address)
{
    return (uint32_t)(address >> 4) & (HEAP_LIVE_FILTER_SLOTS - 1);
}

/* 0 when address is certainly not a live sampled allocation.
 * Context: any. */
static inline int heap_live_maybe(uintptr_t address)
{
    uint32_t slot = heap_live_filter_slot(address);
    uint64_t word = atomic_load_explicit(&heap_live_filter[slot / 64], memory_order_relaxed);
    return (int)((word >> (slot % 64)) & 1);
}

/* Sets the bit of address for good: frees of it always take the slow path
 * (the bootstrap arena's blocks, which must never reach the allocator).
 * Context: hooks. */
void heap_live_filter_pin(uintptr_t address);

/* Exact mode: every filter bit is set for good (nearly every free is of a
 * tracked block, so the filter would only cost its upkeep), and a thread
 * working alone keeps its newest allocations in a small front (the
 * nursery) that most of them leave without reaching the tables.
 * Context: program. */
void heap_live_exact(void);

/* The nursery's entries into the tables, when other threads come (while
 * no other thread uses the tables). dropped gets each entry the tables
 * replaced (an address whose free was never seen), and with lost set each
 * one that found no room.
 * Context: hooks, program. */
void heap_live_nursery_flush(void (*dropped)(const struct live_allocation *, int lost));

/* Records a live sampled allocation. Returns 0; 1 when an entry whose free
 * was never seen gave way, copied to *replaced (one at the same address;
 * with the nursery, possibly one of the block that moved to the tables to
 * make room); -1 when out of memory (the allocation is then not tracked).
 * Context: hooks. */
int heap_live_insert(const struct live_allocation *a, struct live_allocation *replaced);

/* Start loading what an insert or a remove of address will touch into the
 * cache, so that the operation soon after does not wait for memory.
 * Context: hooks. */
void heap_live_prefetch_insert(uintptr_t address);
void heap_live_prefetch_remove(uintptr_t address);

/* Removes the allocation at address into *out. Returns 0, or -1 when the
 * address was not sampled.
 * Context: hooks. */
int heap_live_remove(uintptr_t address, struct live_allocation *out);

/* fork: the shards' locks held across it, and free in the child.
 * Context: program. */
void heap_live_fork_prepare(void);
void heap_live_fork_parent(void);
void heap_live_fork_child(void);

#endif
