/*
 * heap_live.c - the live sampled allocations (see heap_live.h).
 *
 * The filter has one counter per hash bucket of addresses: a free whose
 * bucket counts zero was never sampled and returns at once. Tables use
 * open addressing with tombstones, rebuilt when they fill up.
 */
#define _GNU_SOURCE
#include "heap_live.h"

#include <pthread.h>
#include <stdatomic.h>

#include "pages.h"

#define SHARDS 64
#define EMPTY 0
#define TOMBSTONE 1

struct shard {
    pthread_mutex_t lock;
    struct live_allocation *slots;
    size_t cap, used, tombstones;
};

static struct shard shards[SHARDS] = {[0 ... SHARDS - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER}};
_Atomic uint16_t heap_live_filter[HEAP_LIVE_FILTER_SLOTS];

static uint64_t hash_address(uintptr_t address)
{
    uint64_t h = (uint64_t)address * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static void filter_add(uintptr_t address, int delta)
{
    _Atomic uint16_t *slot = heap_live_filter_slot(address);
    uint16_t v = atomic_load_explicit(slot, memory_order_relaxed);
    while (v != HEAP_LIVE_FILTER_STUCK &&
           !atomic_compare_exchange_weak_explicit(slot, &v, (uint16_t)(v + delta),
                                                  memory_order_relaxed, memory_order_relaxed))
        ;
}

static int rebuild(struct shard *s)
{
    size_t cap = !s->cap ? 128 : s->used * 4 > s->cap ? s->cap * 2 : s->cap;
    struct live_allocation *slots = pages_alloc(cap * sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < s->cap; i++) {
        if (s->slots[i].address <= TOMBSTONE)
            continue;
        size_t j = (hash_address(s->slots[i].address) / SHARDS) & (cap - 1);
        while (slots[j].address != EMPTY)
            j = (j + 1) & (cap - 1);
        slots[j] = s->slots[i];
    }
    pages_free(s->slots, s->cap * sizeof *s->slots);
    s->slots = slots;
    s->cap = cap;
    s->tombstones = 0;
    return 0;
}

int heap_live_insert(const struct live_allocation *a)
{
    uint64_t hash = hash_address(a->address);
    struct shard *s = &shards[hash % SHARDS];
    int ret = -1;
    pthread_mutex_lock(&s->lock);
    if ((s->used + s->tombstones + 1) * 3 <= s->cap * 2 || !rebuild(s)) {
        size_t i = (hash / SHARDS) & (s->cap - 1);
        while (s->slots[i].address > TOMBSTONE)
            i = (i + 1) & (s->cap - 1);
        if (s->slots[i].address == TOMBSTONE)
            s->tombstones--;
        s->slots[i] = *a;
        s->used++;
        filter_add(a->address, 1);
        ret = 0;
    }
    pthread_mutex_unlock(&s->lock);
    return ret;
}

int heap_live_remove(uintptr_t address, struct live_allocation *out)
{
    if (!heap_live_maybe(address))
        return -1;
    uint64_t hash = hash_address(address);
    struct shard *s = &shards[hash % SHARDS];
    int ret = -1;
    pthread_mutex_lock(&s->lock);
    for (size_t i = (hash / SHARDS) & (s->cap - 1), n = 0; s->cap && n < s->cap;
         i = (i + 1) & (s->cap - 1), n++) {
        if (s->slots[i].address == EMPTY)
            break;
        if (s->slots[i].address == address) {
            *out = s->slots[i];
            s->slots[i].address = TOMBSTONE;
            s->used--;
            s->tombstones++;
            filter_add(address, -1);
            ret = 0;
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return ret;
}

void heap_live_fork_prepare(void)
{
    for (int i = 0; i < SHARDS; i++)
        pthread_mutex_lock(&shards[i].lock);
}

void heap_live_fork_parent(void)
{
    for (int i = SHARDS - 1; i >= 0; i--)
        pthread_mutex_unlock(&shards[i].lock);
}

void heap_live_fork_child(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    for (int i = 0; i < SHARDS; i++)
        shards[i].lock = fresh;
}
