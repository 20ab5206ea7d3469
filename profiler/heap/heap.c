/*
 * heap.c - heap tracking (see heap.h): the per-thread sampling decision,
 * the allocation stack, and where what happened goes.
 *
 * Runs inside the program's malloc and free: it must never allocate, and
 * it guards against recursion (the agent's own code, or a program's signal
 * handler calling malloc while a hook runs on the same thread). What a
 * tracked allocation adds up to is heap_tally.c's.
 */
#define _GNU_SOURCE
#include "heap.h"

#include <math.h>
#include <string.h>
#include <stdatomic.h>
#include <time.h>

#include "heap_hooks.h"
#include "heap_live.h"
#include "heap_sharing.h"
#include "heap_stacks.h"
#include "heap_tally.h"
#include "common/agent_threads.h"
#include "sampling/arch_x86_64.h"
#include "sampling/modules.h"
#include "sampling/signal_stack.h"
#include "sampling/threads.h"
#include "sampling/unwind.h"

#define ALLOC_STACK_FRAMES 64

struct heap_thread {
    uint64_t rng;         /* 0 until the thread's first sample */
};

static __thread struct heap_thread self __attribute__((tls_model("initial-exec")));

__thread int64_t heap_bytes_until_sample __attribute__((tls_model("initial-exec")));

/* Heap tracking in this process. */
static struct {
    _Atomic int on;
    int sharing_decided;        /* in this process: once, or again in a fork child */
    uint64_t interval, seed;
    uintptr_t agent_lo, agent_hi; /* the agent's own code, cut from stacks */
} tracking;

void heap_prepare(void)
{
    if (!tracking.sharing_decided)
        heap_sharing_prepare();
}

void heap_start(uint64_t mean_bytes, uint64_t fixed_seed)
{
    struct module_view m;
    tracking.interval = mean_bytes ? mean_bytes : 1;
    tracking.seed = fixed_seed;
    heap_tally_start(tracking.interval);
    if (!tracking.sharing_decided) /* alone: the caller and the agent's threads */
        heap_sharing_start(AGENT_THREADS, heap_tally_nursery_flush);
    tracking.sharing_decided = 1; /* (a restart after a failed exec keeps what is) */
    if (tracking.interval == 1)
        heap_live_exact();
    if (!modules_find((uintptr_t)&heap_start, &m)) {
        tracking.agent_lo = m.lo;
        tracking.agent_hi = m.hi;
    }
    atomic_store(&tracking.on, 1);
    heap_bytes_until_sample = 0; /* this thread: start now, not after a recheck */
}

void heap_stop(void)
{
    atomic_store(&tracking.on, 0);
}

/* libstoke-cpu.so's answers (heap_hooks.h). */
__attribute__((weak)) int heap_hooks_present(void)
{
    return 0;
}

__attribute__((weak)) void heap_hooks_resolve(void)
{
}

int heap_tracking(void)
{
    return atomic_load_explicit(&tracking.on, memory_order_relaxed);
}

uint64_t heap_interval(void)
{
    return tracking.interval;
}

/* A uniform random number in (0, 1]. */
static double uniform(void)
{
    if (!self.rng) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        self.rng = tracking.seed ? tracking.seed
                                 : (uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)&self;
        self.rng ^= 0x9e3779b97f4a7c15ull;
    }
    self.rng ^= self.rng << 13;
    self.rng ^= self.rng >> 7;
    self.rng ^= self.rng << 17;
    return ((self.rng >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* Bytes until the next sample: exponential with mean `interval` (0 in
 * exact mode: every allocation). */
static int64_t next_gap(void)
{
    return tracking.interval == 1 ? 0 : (int64_t)(-log(uniform()) * (double)tracking.interval);
}

/* The budget of a thread starts at 0; its first crossing only draws the
 * real first gap, so the first allocation is not sampled for sure. */
static int first_crossing(size_t size)
{
    if (tracking.interval == 1 || self.rng) /* exact mode first: it reads no thread state */
        return 0;
    heap_bytes_until_sample = next_gap() - (int64_t)size;
    return heap_bytes_until_sample > 0;
}

static uint64_t slot_differs(const struct stack_cache_frame *f)
{
    uint64_t value;
    memcpy(&value, (const void *)f->slot, sizeof value);
    return value ^ f->address;
}

/* The cached entry for a walk starting at sp, if every return address it
 * holds is still where it was read: the walk would give the same frames.
 * (Siblings that call with equal frame sizes share sp and differ in a
 * frame near the start: the loop leaves at the first that differs.) */
static int still_valid(const struct stack_cache_entry *e)
{
    const struct stack_cache_frame *f = e->at + 1, *end = e->at + e->nframes;
    for (; f + 1 < end; f += 2)
        if (slot_differs(f) | slot_differs(f + 1))
            return 0;
    return f == end || !slot_differs(f);
}

static uint32_t bucket_of(uint64_t sp)
{
    return (uint32_t)((sp >> 4) ^ (sp >> 7)) % STACK_CACHE_BUCKETS;
}

static struct stack_cache_entry *cached_walk(struct thread_state *t, uint64_t sp)
{
    struct stack_cache *cache = &t->alloc_stacks;
    uint32_t first = bucket_of(sp) * STACK_CACHE_WAYS;
    for (uint32_t i = first; i < first + STACK_CACHE_WAYS; i++)
        if (cache->start_sps[i] == sp && still_valid(&cache->entries[i]))
            return &cache->entries[i];
    return NULL;
}

/* Only a walk whose return addresses all sat in the thread's stack can be
 * checked again without reading elsewhere; and one with no return address
 * at all could not be checked. */
static int slots_in_stack(const struct thread_state *t, const struct stack_cache_entry *e)
{
    if (e->nframes < 2)
        return 0;
    for (uint32_t i = 1; i < e->nframes; i++)
        if (e->at[i].slot < t->stack_lo || e->at[i].slot + sizeof(uint64_t) > t->stack_hi)
            return 0;
    return 1;
}

/* The stack of an allocation whose walk could not start. */
static struct heap_stack *unknown_stack(void)
{
    uint64_t none[1] = {0};
    return heap_stacks_intern(none, 0, STOKE_STACK_CALLERS | STOKE_STACK_PARTIAL);
}

struct cache_walk {
    struct thread_state *t;
    uint64_t sp;
    struct heap_stack *result;
};

/* The walk from t->hook_context into a cache entry, on the agent's stack
 * (signal_stack_run): an unwind needs about 11 KiB, which the program's
 * stack may not have. */
static void walk_into_cache_here(void *arg)
{
    struct cache_walk *w = arg;
    struct thread_state *t = w->t;
    struct unwind_start from;
    unwind_start_from_ucontext(&from, &t->hook_context);
    unwind_bound_stack(&from, t->stack_lo, t->stack_hi);
    struct stack_cache *cache = &t->alloc_stacks;
    uint32_t bucket = bucket_of(w->sp);
    uint32_t slot = bucket * STACK_CACHE_WAYS + cache->next[bucket]++ % STACK_CACHE_WAYS;
    struct stack_cache_entry *e = &cache->entries[slot];
    cache->start_sps[slot] = 0;
    if (modules_enter())
        return;
    uint32_t flags;
    uint64_t frames[STACK_CACHE_FRAMES + 1], slots[STACK_CACHE_FRAMES + 1];
    uint32_t n = unwind_stack_slots(&from, frames, slots, STACK_CACHE_FRAMES + 1, &flags);
    modules_leave();
    const uint64_t *pcs = frames + 1, *pc_slots = slots + 1; /* from the caller's frame on */
    e->nframes = n ? n - 1 : 0;
    uint64_t program[ALLOC_STACK_FRAMES];
    uint32_t kept = 0; /* the agent's own frames (its hooks) are not the program's */
    for (uint32_t i = 0; i < e->nframes; i++) {
        e->at[i] = (struct stack_cache_frame){i ? pc_slots[i] : 0, pcs[i]};
        int agents = pcs[i] >= tracking.agent_lo && pcs[i] < tracking.agent_hi;
        if (!agents && kept < ALLOC_STACK_FRAMES)
            program[kept++] = pcs[i];
    }
    if (kept == ALLOC_STACK_FRAMES && e->nframes > ALLOC_STACK_FRAMES)
        flags |= STOKE_STACK_TRUNCATED;
    e->stack = heap_stacks_intern(program, kept, flags | STOKE_STACK_CALLERS);
    int reusable = e->stack && !(flags & STOKE_STACK_PARTIAL) && slots_in_stack(t, e);
    cache->start_sps[slot] = reusable ? w->sp : 0;
    w->result = e->stack;
}

/* Unwinds into a cache entry found again by sp, its caller's stack
 * pointer. Out of line, so that the cached path keeps nothing of the walk
 * in its frame. The walk starts here: this frame is dropped, and the
 * caller's, whose return address this call pushed below sp (where every
 * later call writes), is kept without a slot, as the first frame of a walk
 * is. The registers are kept in the thread's state, not on its stack. */
static __attribute__((noinline)) struct heap_stack *walk_into_cache(struct thread_state *t,
                                                                    uint64_t sp)
{
    if (!unwind_getcontext || unwind_getcontext(&t->hook_context))
        return unknown_stack();
    struct cache_walk w = {t, sp, NULL};
    signal_stack_run(t, walk_into_cache_here, &w, 0);
    return w.result;
}

/* The interned allocation stack of the caller, from the cache when the
 * same place allocated before. NULL when out of memory or unregistered. */
static inline __attribute__((always_inline)) struct heap_stack *allocation_stack(void)
{
    struct thread_state *t = current_thread;
    if (!t)
        return unknown_stack();
    uint64_t sp = arch_stack_pointer(); /* this function's own (its key in the cache) */
    struct stack_cache_entry *e = cached_walk(t, sp);
    return e ? e->stack : walk_into_cache(t, sp);
}

static inline __attribute__((always_inline)) void record(void *p, size_t size)
{
    struct heap_stack *stack = allocation_stack();
    if (!stack || size > HEAP_LIVE_MAX_SIZE || stack->id > HEAP_LIVE_MAX_STACK_ID) {
        heap_tally_untracked();
        return;
    }
    struct live_allocation a = {.address = (uintptr_t)p, .size = size, .stack_id = stack->id};
    heap_sharing_enter();
    heap_tally_alloc(&a, stack);
    heap_sharing_leave();
}

void heap_sampled_alloc(void *p, size_t size)
{
    if (!heap_tracking()) {
        heap_bytes_until_sample = HEAP_RECHECK_BYTES;
        return;
    }
    if (first_crossing(size))
        return;
    heap_bytes_until_sample = next_gap();
    if (!p || agent_marks.busy || agent_marks.own)
        return;
    heap_live_prefetch_insert((uintptr_t)p); /* while the stack is found */
    agent_marks.busy++;
    record(p, size);
    agent_marks.busy--;
}

/* Not while the thread is inside a hook already: the tables may be half
 * written. */
static int may_track_free(const void *p)
{
    return p && heap_tracking() && !agent_marks.busy && !agent_marks.own;
}

void heap_free_end(void *p)
{
    struct live_allocation gone;
    heap_tally_free((uintptr_t)p, &gone);
    heap_sharing_leave();
    agent_marks.busy--;
}

void heap_maybe_sampled_free(void *p)
{
    if (!may_track_free(p))
        return;
    agent_marks.busy++;
    heap_sharing_enter();
    heap_free_end(p);
}

int heap_free_begin(void *p)
{
    if (!may_track_free(p))
        return 0;
    agent_marks.busy++; /* until the table is done: a signal handler's hooks keep out */
    if (!heap_sharing_enter()) {
        heap_free_end(p); /* shared: before the memory goes back to the allocator */
        return 0;
    }
    heap_live_prefetch_remove((uintptr_t)p);
    return 1; /* alone until heap_free_end: nothing can reuse the address */
}

void heap_take(void *p, struct heap_taken *taken)
{
    taken->how = HEAP_TAKEN_NOTHING;
    if (!heap_live_maybe((uintptr_t)p) || !may_track_free(p))
        return;
    agent_marks.busy++;
    heap_sharing_enter();
    if (!heap_tally_free((uintptr_t)p, &taken->allocation))
        taken->how = HEAP_TAKEN_OUT;
    heap_sharing_leave();
    agent_marks.busy--;
}

void heap_realloc_done(const struct heap_taken *taken, int failed)
{
    if (taken->how != HEAP_TAKEN_OUT || !failed)
        return;
    agent_marks.busy++;
    heap_sharing_enter();
    heap_tally_restore(&taken->allocation);
    heap_sharing_leave();
    agent_marks.busy--;
}

void heap_threads_coming(void)
{
    agent_marks.busy++;
    heap_sharing_share();
    agent_marks.busy--;
}

void heap_fork_prepare(void)
{
    if (!heap_sharing_sole) /* the sole thread may be inside the tables */
        heap_threads_coming();
    heap_stacks_fork_prepare();
    heap_live_fork_prepare();
}

void heap_fork_parent(void)
{
    heap_live_fork_parent();
    heap_stacks_fork_parent();
}

void heap_fork_child(void)
{
    heap_live_fork_child();
    heap_stacks_fork_child();
    heap_sharing_fork_child();
    tracking.sharing_decided = 0;
}
