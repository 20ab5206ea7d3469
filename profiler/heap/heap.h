/*
 * heap.h - heap tracking: which allocations are sampled, what each stands
 * for. The malloc hooks call heap_on_alloc and heap_on_free; snapshots
 * read the totals (heap_tally.h) and the stack table.
 *
 * Sampling is a Poisson process over allocated bytes with a mean of one
 * sample per `interval` bytes: an allocation of size s is sampled with
 * probability 1 - exp(-s/interval) and then stands for
 * s / (1 - exp(-s/interval)) bytes, so estimates are unbiased. An interval
 * of 1 records every allocation exactly.
 */
#ifndef STOKE_AGENT_HEAP_H
#define STOKE_AGENT_HEAP_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "heap_live.h"

/* Readies a process that will track its heap, before the agent starts its
 * own threads in it (heap_sharing_prepare).
 * Context: program. */
void heap_prepare(void);

/* Starts tracking with the given mean sampling interval in bytes. A
 * non-zero seed makes the sampling of each thread reproducible.
 * Context: program. */
void heap_start(uint64_t interval, uint64_t seed);

/* Stops tracking (the trace is finished).
 * Context: any. */
void heap_stop(void);

/* 1 while tracking; the mean sampling interval in bytes.
 * Context: any. */
int heap_tracking(void);
uint64_t heap_interval(void);

/* The hooks' fast paths, inlined into them: most allocations only count
 * down this thread's byte budget, most frees only test one bit of the
 * filter. Neither reads a global flag: with tracking off the filter is
 * empty, and a budget that runs out only then finds tracking off and waits
 * HEAP_RECHECK_BYTES before it asks again. */
extern __thread int64_t heap_bytes_until_sample __attribute__((tls_model("initial-exec")));

#define HEAP_RECHECK_BYTES (64ll << 20)

/* Counts an allocation of size bytes down the budget; 1 when it must be
 * passed to heap_sampled_alloc once made.
 * Context: hooks. */
static inline int heap_alloc_is_sampled(size_t size)
{
    heap_bytes_until_sample -= (int64_t)size;
    return __builtin_expect(heap_bytes_until_sample <= 0, 0);
}

/* An allocation heap_alloc_is_sampled picked (p NULL: it failed).
 * Context: hooks. */
void heap_sampled_alloc(void *p, size_t size);

/* Frees of addresses the filter flags, before the memory is released.
 * Context: hooks. */
void heap_maybe_sampled_free(void *p);

/* The same in two steps: heap_free_begin before the memory is released
 * and, when it returned 1, heap_free_end after. With one program thread
 * nothing can reuse the address in between, so the table waits until the
 * allocator is done: its cache miss overlaps the allocator's work.
 * Context: hooks. */
int heap_free_begin(void *p);
void heap_free_end(void *p);

/* Both steps, for hooks off the hot path.
 * Context: hooks. */
static inline void heap_on_alloc(void *p, size_t size)
{
    if (heap_alloc_is_sampled(size))
        heap_sampled_alloc(p, size);
}

/* Context: hooks. */
static inline void heap_on_free(void *p)
{
    if (__builtin_expect(heap_live_maybe((uintptr_t)p), 0))
        heap_maybe_sampled_free(p);
}

/* realloc: the old block is taken out before the allocator may reuse its
 * address, and put back as it was if the allocator fails. */
enum { HEAP_TAKEN_NOTHING, HEAP_TAKEN_OUT };
struct heap_taken {
    int how;
    struct live_allocation allocation;
};

/* Takes p's block out; puts it back when the realloc failed.
 * Context: hooks. */
void heap_take(void *p, struct heap_taken *taken);
void heap_realloc_done(const struct heap_taken *taken, int failed);

/* Before the program starts a thread or installs a seccomp filter: the
 * tables are shared from then on (heap_sharing.h).
 * Context: program. */
void heap_threads_coming(void);

/* fork: the tables' locks held across it, and made new in the child.
 * Context: program. */
void heap_fork_prepare(void);
void heap_fork_parent(void);
void heap_fork_child(void);

#endif
