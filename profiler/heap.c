/*
 * heap.c - heap tracking (see heap.h): the per-thread sampling decision,
 * the weight of a sample, the allocation stack and the running totals.
 *
 * Runs inside the program's malloc and free: it must never allocate, and
 * it guards against recursion (the agent's own code, or a program's signal
 * handler calling malloc while a hook runs on the same thread). Objects are
 * counted in 1/1024 units so that weights of large allocations (1.58
 * objects for a 512 KiB block) do not round away.
 */
#define _GNU_SOURCE
#include "heap.h"

#include <math.h>
#include <string.h>
#include <stdatomic.h>
#include <time.h>

#include "heap_live.h"
#include "heap_stacks.h"
#include "modules.h"
#include "threads.h"
#include "unwind.h"

#define OBJECT_UNIT 1024
#define ALLOC_STACK_FRAMES 64

struct heap_thread {
    uint64_t rng;         /* 0 until the thread's first sample */
    int busy;             /* inside a hook already: do not track */
    int ignored;          /* one of the agent's own threads */
};

static __thread struct heap_thread self __attribute__((tls_model("initial-exec")));

static _Atomic int heap_tracking_on;
__thread int64_t heap_bytes_until_sample __attribute__((tls_model("initial-exec")));
static uint64_t interval, seed;
static uintptr_t agent_lo, agent_hi; /* the agent's own code, cut from stacks */
static _Atomic uint64_t untracked;

void heap_start(uint64_t mean_bytes, uint64_t fixed_seed)
{
    struct module_view m;
    interval = mean_bytes ? mean_bytes : 1;
    seed = fixed_seed;
    if (!modules_find((uintptr_t)&heap_start, &m)) {
        agent_lo = m.lo;
        agent_hi = m.hi;
    }
    atomic_store(&heap_tracking_on, 1);
    heap_bytes_until_sample = 0; /* this thread: start now, not after a recheck */
}

void heap_stop(void)
{
    atomic_store(&heap_tracking_on, 0);
}

int heap_tracking(void)
{
    return atomic_load_explicit(&heap_tracking_on, memory_order_relaxed);
}

uint64_t heap_interval(void)
{
    return interval;
}

void heap_ignore_this_thread(void)
{
    self.ignored = 1;
}

void heap_agent_work_begin(void)
{
    self.busy++;
}

void heap_agent_work_end(void)
{
    self.busy--;
}

/* A uniform random number in (0, 1]. */
static double uniform(void)
{
    if (!self.rng) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        self.rng = seed ? seed : (uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)&self;
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
    return interval == 1 ? 0 : (int64_t)(-log(uniform()) * (double)interval);
}

/* The budget of a thread starts at 0; its first crossing only draws the
 * real first gap, so the first allocation is not sampled for sure. */
static int first_crossing(size_t size)
{
    if (self.rng || interval == 1)
        return 0;
    heap_bytes_until_sample = next_gap() - (int64_t)size;
    return heap_bytes_until_sample > 0;
}

/* The cached entry for a walk starting at sp, if every return address it
 * holds is still where it was read: the walk would give the same frames. */
static int still_valid(const struct thread_state *t, const struct stack_cache_entry *e)
{
    for (uint32_t i = 1; i < e->nframes; i++) {
        uint64_t slot = e->slots[i], value;
        if (slot < t->stack_lo || slot + sizeof value > t->stack_hi)
            return 0;
        memcpy(&value, (const void *)slot, sizeof value);
        if (value != e->frames[i])
            return 0;
    }
    return 1;
}

/* Several call paths may start the walk at the same sp (sibling callers of
 * equal frame sizes), so every entry is a candidate. */
static struct stack_cache_entry *cached_walk(struct thread_state *t, uint64_t sp)
{
    struct stack_cache *cache = &t->alloc_stacks;
    for (int i = 0; i < STACK_CACHE_ENTRIES; i++)
        if (cache->start_sps[i] == sp && still_valid(t, &cache->entries[i]))
            return &cache->entries[i];
    return NULL;
}

/* Unwinds from the caller's context into the cache entry for its sp. */
static struct stack_cache_entry *walk_into_cache(struct thread_state *t,
                                                 const ucontext_t *context)
{
    struct unwind_start from;
    unwind_start_from_ucontext(&from, context);
    from.stack_lo = t->stack_lo;
    from.stack_hi = t->stack_hi;
    uint64_t sp = from.regs[7]; /* DWARF rsp */
    struct stack_cache *cache = &t->alloc_stacks;
    uint32_t slot = cache->next++ % STACK_CACHE_ENTRIES;
    struct stack_cache_entry *e = &cache->entries[slot];
    cache->start_sps[slot] = 0;
    if (modules_enter())
        return NULL;
    uint32_t flags;
    e->nframes = unwind_stack_slots(&from, e->frames, e->slots, STACK_CACHE_FRAMES, &flags);
    modules_leave();
    uint64_t program[ALLOC_STACK_FRAMES];
    uint32_t kept = 0; /* the agent's own frames (its hooks) are not the program's */
    for (uint32_t i = 0; i < e->nframes && kept < ALLOC_STACK_FRAMES; i++)
        if (e->frames[i] < agent_lo || e->frames[i] >= agent_hi)
            program[kept++] = e->frames[i];
    if (kept == ALLOC_STACK_FRAMES && e->nframes > ALLOC_STACK_FRAMES)
        flags |= STOKE_STACK_TRUNCATED;
    e->stack = heap_stacks_intern(program, kept, flags | STOKE_STACK_CALLERS);
    cache->start_sps[slot] = e->stack && !(flags & STOKE_STACK_PARTIAL) ? sp : 0;
    return e;
}

/* The interned allocation stack of the caller, from the cache when the
 * same place allocated before. NULL when out of memory or unregistered. */
static struct heap_stack *allocation_stack(void)
{
    struct thread_state *t = current_thread;
    uint64_t sp; /* the same sp getcontext records below: this function's own */
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
    struct stack_cache_entry *e = t ? cached_walk(t, sp) : NULL;
    if (e)
        return e->stack;
    ucontext_t context;
    if (!t || !unwind_getcontext || unwind_getcontext(&context)) {
        uint64_t none[1] = {0};
        return heap_stacks_intern(none, 0, STOKE_STACK_CALLERS | STOKE_STACK_PARTIAL);
    }
    e = walk_into_cache(t, &context);
    return e ? e->stack : NULL;
}

struct weight {
    uint64_t bytes, objects; /* objects in OBJECT_UNITs */
};

/* What a sampled allocation of size bytes stands for. */
static struct weight weigh(uint64_t size)
{
    if (interval == 1)
        return (struct weight){size, OBJECT_UNIT};
    double probability = -expm1(-(double)size / (double)interval);
    if (probability <= 0)
        probability = 1.0 / (double)interval;
    return (struct weight){(uint64_t)((double)size / probability + 0.5),
                           (uint64_t)(OBJECT_UNIT / probability + 0.5)};
}

static void count_live(const struct live_allocation *a, int sign)
{
    struct heap_stack *s = heap_stacks_get(a->stack_id);
    if (!s)
        return;
    struct weight w = weigh(a->size);
    atomic_fetch_add_explicit(&s->live_bytes, sign * (int64_t)w.bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->live_objects, sign * (int64_t)w.objects, memory_order_relaxed);
}

static void count_untracked(void)
{
    atomic_fetch_add_explicit(&untracked, 1, memory_order_relaxed);
}

/* Into the live table and its stack's live counts; an entry it replaces
 * (an address whose free was never seen) leaves the counts. */
static int track(const struct live_allocation *a)
{
    struct live_allocation replaced;
    int found = heap_live_insert(a, &replaced);
    if (found < 0) {
        count_untracked();
        return -1;
    }
    if (found)
        count_live(&replaced, -1);
    count_live(a, 1);
    return 0;
}

static void record(void *p, size_t size)
{
    struct heap_stack *stack = allocation_stack();
    if (!stack || size > HEAP_LIVE_MAX_SIZE || stack->id > HEAP_LIVE_MAX_STACK_ID) {
        count_untracked();
        return;
    }
    struct live_allocation a = {.address = (uintptr_t)p, .size = size, .stack_id = stack->id};
    if (track(&a))
        return;
    struct weight w = weigh(size);
    atomic_fetch_add_explicit(&stack->alloc_bytes, w.bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&stack->alloc_objects, w.objects, memory_order_relaxed);
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
    if (!p || self.busy || self.ignored)
        return;
    self.busy++;
    record(p, size);
    self.busy--;
}

void heap_take(void *p, struct heap_taken *taken)
{
    taken->found = 0;
    if (!p || !heap_live_maybe((uintptr_t)p) || !heap_tracking())
        return;
    if (self.busy || self.ignored)
        return;
    self.busy++;
    if (!heap_live_remove((uintptr_t)p, &taken->allocation)) {
        count_live(&taken->allocation, -1);
        taken->found = 1;
    }
    self.busy--;
}

void heap_maybe_sampled_free(void *p)
{
    struct heap_taken ignored;
    heap_take(p, &ignored);
}

void heap_put_back(const struct heap_taken *taken)
{
    if (!taken->found)
        return;
    self.busy++;
    track(&taken->allocation);
    self.busy--;
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
    t->live_objects = (live_units + OBJECT_UNIT / 2) / OBJECT_UNIT;
    t->alloc_bytes = alloc_bytes;
    t->alloc_objects = (alloc_units + OBJECT_UNIT / 2) / OBJECT_UNIT;
    t->untracked = atomic_load(&untracked);
}

void heap_fork_prepare(void)
{
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
}
