/*
 * heap_live.c - the live sampled allocations (see heap_live.h).
 *
 * An address belongs to the shard of its filter slot's low bits, so a
 * slot's count only ever changes under one shard's lock: counts are plain,
 * and a filter bit changes (one atomic operation) only when its count
 * leaves or returns to zero. Each shard is an open-addressing table with
 * linear probing, at most half full; a removal shifts the entries after it
 * back into place, so there are no tombstones and probes stay short however
 * much the program churns.
 */
#define _GNU_SOURCE
#include "heap_live.h"

#include <stdatomic.h>

#include "heap_sharing.h"
#include "spinlock.h"
#include "common/pages.h"

#define SHARDS 64
#define FIRST_CAPACITY 128
#define EMPTY 0

/* A slot count that reaches its maximum stays there (and its bit stays
 * set): the tables then only lose the filter's help for that slot. */
#define COUNT_STUCK 0xffffu

struct shard {
    struct spinlock lock;
    struct live_allocation *slots;
    size_t cap, used;
};

static struct shard shards[SHARDS];
_Atomic uint64_t heap_live_filter[HEAP_LIVE_FILTER_SLOTS / 64];
static uint16_t filter_counts[HEAP_LIVE_FILTER_SLOTS];
static int filter_pinned; /* every count stuck (exact mode): none is read */

static struct shard *shard_of(uintptr_t address)
{
    return &shards[heap_live_filter_slot(address) % SHARDS];
}

/* The bits that pick the shard (and the alignment's zeros) are the same
 * for every address of a shard: only the bits above them are hashed. */
static size_t home(uintptr_t address, size_t cap)
{
    uint64_t h = (uint64_t)(address >> 10) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 32) & (cap - 1);
}

static uint64_t filter_bit(uint32_t slot)
{
    return 1ull << (slot % 64);
}

/* Returns whether it locked: the unlock must agree even should the mode
 * change meanwhile. */
static int shard_lock(struct shard *s)
{
    int shared = heap_shared();
    if (shared)
        spinlock_lock(&s->lock);
    return shared;
}

static void shard_unlock(struct shard *s, int locked)
{
    if (locked)
        spinlock_unlock(&s->lock);
}

/* Other shards change other bits of the same word. */
static void filter_word_set(uint32_t slot, int on)
{
    _Atomic uint64_t *word = &heap_live_filter[slot / 64];
    uint64_t bit = filter_bit(slot);
    if (heap_shared()) {
        if (on)
            atomic_fetch_or(word, bit);
        else
            atomic_fetch_and(word, ~bit);
        return;
    }
    uint64_t old = atomic_load_explicit(word, memory_order_relaxed);
    atomic_store_explicit(word, on ? old | bit : old & ~bit, memory_order_relaxed);
}

/* Both under the lock of the address's shard. */
static void filter_count_up(uintptr_t address)
{
    uint32_t slot = heap_live_filter_slot(address);
    if (filter_pinned || filter_counts[slot] == COUNT_STUCK)
        return;
    if (filter_counts[slot]++ == 0)
        filter_word_set(slot, 1);
}

static void filter_count_down(uintptr_t address)
{
    uint32_t slot = heap_live_filter_slot(address);
    if (filter_pinned || filter_counts[slot] == COUNT_STUCK)
        return;
    if (--filter_counts[slot] == 0)
        filter_word_set(slot, 0);
}

void heap_live_filter_pin(uintptr_t address)
{
    struct shard *s = shard_of(address);
    uint32_t slot = heap_live_filter_slot(address);
    spinlock_lock(&s->lock);
    filter_counts[slot] = COUNT_STUCK;
    atomic_fetch_or(&heap_live_filter[slot / 64], filter_bit(slot));
    spinlock_unlock(&s->lock);
}

/* The slot holding address, or the empty slot where it would go. */
static size_t probe(const struct shard *s, uintptr_t address)
{
    size_t i = home(address, s->cap);
    while (s->slots[i].address != EMPTY && s->slots[i].address != address)
        i = (i + 1) & (s->cap - 1);
    return i;
}

static int grow(struct shard *s)
{
    size_t cap = s->cap ? s->cap * 2 : FIRST_CAPACITY;
    struct live_allocation *old = s->slots;
    size_t old_cap = s->cap;
    struct live_allocation *slots = pages_alloc(cap * sizeof *slots);
    if (!slots)
        return -1;
    s->slots = slots;
    s->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].address != EMPTY)
            slots[probe(s, old[i].address)] = old[i];
    pages_free(old, old_cap * sizeof *old);
    return 0;
}

static __attribute__((noinline)) int table_insert(const struct live_allocation *a,
                                                  struct live_allocation *replaced)
{
    struct shard *s = shard_of(a->address);
    int ret = -1;
    int locked = shard_lock(s);
    if ((s->used + 1) * 2 <= s->cap || !grow(s)) {
        struct live_allocation *slot = &s->slots[probe(s, a->address)];
        if (slot->address == EMPTY) {
            s->used++;
            filter_count_up(a->address);
            ret = 0;
        } else {
            *replaced = *slot;
            ret = 1;
        }
        *slot = *a;
    }
    shard_unlock(s, locked);
    return ret;
}

/* Empties slot i, moving later entries of its run back so that every
 * entry stays reachable from its home slot. */
static void remove_at(struct shard *s, size_t i)
{
    size_t mask = s->cap - 1;
    for (size_t j = (i + 1) & mask; s->slots[j].address != EMPTY; j = (j + 1) & mask) {
        size_t k = home(s->slots[j].address, s->cap);
        /* the entry at j may move to i unless its home lies in (i, j] */
        int stays = i <= j ? i < k && k <= j : i < k || k <= j;
        if (!stays) {
            s->slots[i] = s->slots[j];
            i = j;
        }
    }
    s->slots[i].address = EMPTY;
}

static __attribute__((noinline)) void table_prefetch(uintptr_t address)
{
    struct shard *s = shard_of(address);
    size_t cap = __atomic_load_n(&s->cap, __ATOMIC_RELAXED);
    struct live_allocation *slots = __atomic_load_n(&s->slots, __ATOMIC_RELAXED);
    if (cap) /* a table being replaced meanwhile: a prefetch never faults */
        __builtin_prefetch(&slots[home(address, cap)], 1);
}

static __attribute__((noinline)) int table_remove(uintptr_t address,
                                                  struct live_allocation *out)
{
    struct shard *s = shard_of(address);
    int ret = -1;
    int locked = shard_lock(s);
    if (s->cap) {
        size_t i = probe(s, address);
        if (s->slots[i].address == address) {
            *out = s->slots[i];
            remove_at(s, i);
            s->used--;
            filter_count_down(address);
            ret = 0;
        }
    }
    shard_unlock(s, locked);
    return ret;
}

static void lock_all(void)
{
    for (int i = 0; i < SHARDS; i++)
        spinlock_lock(&shards[i].lock);
}

static void unlock_all(void)
{
    for (int i = SHARDS - 1; i >= 0; i--)
        spinlock_unlock(&shards[i].lock);
}

static void filter_pin_all(void)
{
    lock_all();
    for (uint32_t slot = 0; slot < HEAP_LIVE_FILTER_SLOTS; slot++)
        filter_counts[slot] = COUNT_STUCK;
    for (uint32_t i = 0; i < HEAP_LIVE_FILTER_SLOTS / 64; i++)
        atomic_store(&heap_live_filter[i], ~0ull);
    filter_pinned = 1;
    unlock_all();
}

void heap_live_fork_prepare(void)
{
    lock_all();
}

void heap_live_fork_parent(void)
{
    unlock_all();
}

void heap_live_fork_child(void)
{
    for (int i = 0; i < SHARDS; i++)
        spinlock_reset(&shards[i].lock);
}

/* --- the nursery ---------------------------------------------------------- */

/* In exact mode, while one thread works alone (heap_sharing.h), the newest
 * allocations wait in a small direct-mapped front that stays in the L1
 * cache: most blocks are freed while still there and never reach the
 * tables. A block that must make room moves to the tables. The filter is
 * pinned then, so nothing here counts filter slots. An address allocated
 * again while a stale entry of it (whose free was never seen) sits in the
 * tables is reported as replaced when its entry moves there. */
#define NURSERY_SLOTS 256
static struct live_allocation nursery[NURSERY_SLOTS];
static _Atomic int nursery_on; /* changes only while no other thread is inside */

static struct live_allocation *nursery_slot(uintptr_t address)
{
    return &nursery[(address >> 4) * 0x9e3779b97f4a7c15ull >> 56];
}

static int in_nursery(void)
{
    return atomic_load_explicit(&nursery_on, memory_order_relaxed);
}

/* What the nursery holds at address, read for a prefetch only: it may be
 * outside the sole thread's marked work. */
static uintptr_t nursery_peek(uintptr_t address)
{
    return __atomic_load_n(&nursery_slot(address)->address, __ATOMIC_RELAXED);
}

void heap_live_exact(void)
{
    filter_pin_all();
    atomic_store(&nursery_on, !heap_shared());
}

int heap_live_insert(const struct live_allocation *a, struct live_allocation *replaced)
{
    if (!in_nursery())
        return table_insert(a, replaced);
    struct live_allocation *n = nursery_slot(a->address), old = *n;
    if (old.address == a->address) {
        *replaced = old;
        *n = *a;
        return 1;
    }
    int ret = old.address == EMPTY ? 0 : table_insert(&old, replaced);
    if (ret >= 0)
        *n = *a; /* else the old one stays, and a is not tracked */
    return ret;
}

int heap_live_remove(uintptr_t address, struct live_allocation *out)
{
    struct live_allocation *n = nursery_slot(address);
    if (in_nursery() && n->address == address) {
        *out = *n;
        n->address = EMPTY;
        return 0;
    }
    return table_remove(address, out);
}

/* With the nursery, the table slot to fill is that of the block the new one
 * moves out (none when its place is empty or holds the same address). */
void heap_live_prefetch_insert(uintptr_t address)
{
    if (!in_nursery()) {
        table_prefetch(address);
        return;
    }
    uintptr_t moving = nursery_peek(address);
    if (moving != EMPTY && moving != address)
        table_prefetch(moving);
}

void heap_live_prefetch_remove(uintptr_t address)
{
    if (!in_nursery() || nursery_peek(address) != address)
        table_prefetch(address);
}

void heap_live_nursery_flush(void (*dropped)(const struct live_allocation *, int lost))
{
    struct live_allocation replaced;
    atomic_store(&nursery_on, 0);
    for (int i = 0; i < NURSERY_SLOTS; i++)
        if (nursery[i].address != EMPTY) {
            int found = table_insert(&nursery[i], &replaced);
            if (found)
                dropped(found > 0 ? &replaced : &nursery[i], found < 0);
            nursery[i].address = EMPTY;
        }
}
