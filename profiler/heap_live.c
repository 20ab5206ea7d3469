/*
 * heap_live.c - the live sampled allocations (see heap_live.h).
 *
 * The filter has one bit per slot of addresses: a free whose bit is clear
 * was never sampled and returns at once. Tables use
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

/* A count per filter slot: a bit is set while its count is not zero. A
 * count that reaches its maximum stays there (and its bit stays set). */
#define COUNT_STUCK 0xffffu

static struct shard shards[SHARDS] = {[0 ... SHARDS - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER}};
_Atomic uint64_t heap_live_filter[HEAP_LIVE_FILTER_SLOTS / 64];
static _Atomic uint16_t filter_counts[HEAP_LIVE_FILTER_SLOTS];

static uint64_t hash_address(uintptr_t address)
{
    uint64_t h = (uint64_t)address * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* Counts of one slot change under different shards' locks, so a bit is
 * set after its count leaves zero, and cleared after it returns to zero
 * only to be set again if another insert came in between. */
static void filter_add(uintptr_t address, int delta)
{
    uint32_t slot = heap_live_filter_slot(address);
    _Atomic uint16_t *count = &filter_counts[slot];
    _Atomic uint64_t *word = &heap_live_filter[slot / 64];
    uint64_t bit = 1ull << (slot % 64);
    uint16_t v = atomic_load(count);
    do
        if (v == COUNT_STUCK)
            return;
    while (!atomic_compare_exchange_weak(count, &v, (uint16_t)(v + delta)));
    if (delta > 0 && v == 0)
        atomic_fetch_or(word, bit);
    if (delta < 0 && v == 1) {
        atomic_fetch_and(word, ~bit);
        if (atomic_load(count))
            atomic_fetch_or(word, bit);
    }
}

void heap_live_filter_pin(uintptr_t address)
{
    uint32_t slot = heap_live_filter_slot(address);
    atomic_store(&filter_counts[slot], COUNT_STUCK);
    atomic_fetch_or(&heap_live_filter[slot / 64], 1ull << (slot % 64));
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
