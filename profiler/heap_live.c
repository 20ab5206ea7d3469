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

#include "pages.h"
#include "spinlock.h"

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

/* Both under the lock of the address's shard. */
static void filter_count_up(uintptr_t address)
{
    uint32_t slot = heap_live_filter_slot(address);
    if (filter_counts[slot] == COUNT_STUCK)
        return;
    if (filter_counts[slot]++ == 0)
        atomic_fetch_or(&heap_live_filter[slot / 64], filter_bit(slot));
}

static void filter_count_down(uintptr_t address)
{
    uint32_t slot = heap_live_filter_slot(address);
    if (filter_counts[slot] == COUNT_STUCK)
        return;
    if (--filter_counts[slot] == 0)
        atomic_fetch_and(&heap_live_filter[slot / 64], ~filter_bit(slot));
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

int heap_live_insert(const struct live_allocation *a, struct live_allocation *replaced)
{
    struct shard *s = shard_of(a->address);
    int ret = -1;
    spinlock_lock(&s->lock);
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
    spinlock_unlock(&s->lock);
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

int heap_live_remove(uintptr_t address, struct live_allocation *out)
{
    struct shard *s = shard_of(address);
    int ret = -1;
    spinlock_lock(&s->lock);
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
    spinlock_unlock(&s->lock);
    return ret;
}

void heap_live_fork_prepare(void)
{
    for (int i = 0; i < SHARDS; i++)
        spinlock_lock(&shards[i].lock);
}

void heap_live_fork_parent(void)
{
    for (int i = SHARDS - 1; i >= 0; i--)
        spinlock_unlock(&shards[i].lock);
}

void heap_live_fork_child(void)
{
    for (int i = 0; i < SHARDS; i++)
        spinlock_reset(&shards[i].lock);
}
