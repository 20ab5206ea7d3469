/*
 * stack_cache.h - a thread's recent allocation stacks, so that an
 * allocation made again from the same place does not unwind again.
 *
 * An entry is found by the stack pointer at which the agent started
 * unwinding: the pointer picks one of a few buckets, and any entry of the
 * bucket may hold it (sibling callers with equal frame sizes share one);
 * the stack pointers sit together in two cache lines. An entry is valid
 * only if every return address it holds is still in the stack slot it was
 * read from (all of them inside the thread's stack, checked when it was
 * made): then the walk would give the same frames. Lives in the thread's
 * state; used by heap.c only.
 */
#ifndef STOKE_AGENT_STACK_CACHE_H
#define STOKE_AGENT_STACK_CACHE_H

#include <stdint.h>

#define STACK_CACHE_ENTRIES 16
#define STACK_CACHE_WAYS 4 /* entries per bucket */
#define STACK_CACHE_BUCKETS (STACK_CACHE_ENTRIES / STACK_CACHE_WAYS)
#define STACK_CACHE_FRAMES 72

/* A return address and the stack slot it was read from (0 for frame 0):
 * side by side, so that checking an entry reads as few cache lines as
 * it can. */
struct stack_cache_frame {
    uint64_t slot, address;
};

struct stack_cache_entry {
    uint32_t nframes;
    void *stack; /* the interned struct heap_stack */
    struct stack_cache_frame at[STACK_CACHE_FRAMES]; /* as unwound, the agent's frames included */
};

struct stack_cache {
    uint64_t start_sps[STACK_CACHE_ENTRIES]; /* of each entry, by bucket: 0 empty */
    struct stack_cache_entry entries[STACK_CACHE_ENTRIES];
    uint8_t next[STACK_CACHE_BUCKETS]; /* the way a new walk replaces (round robin) */
};

#endif
