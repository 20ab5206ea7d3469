/*
 * heap_stacks.c - the allocation stack table (see heap_stacks.h).
 *
 * 16 shards, chosen by the stack's hash, each an open-addressing table of
 * pointers plus a bump arena for the stacks themselves, under its own
 * mutex. Ids index a two-level directory so a snapshot can visit stacks in
 * id order without any lock. Memory comes from pages_alloc and is never
 * returned (stacks live as long as the process).
 */
#define _GNU_SOURCE
#include "heap_stacks.h"

#include <pthread.h>
#include <string.h>

#include "common/pages.h"
#include "sampling/modules.h"

#define SHARDS 16
#define ARENA_CHUNK (1u << 20)
#define DIR_CHUNK 4096
#define DIR_CHUNKS 1024

struct shard {
    pthread_mutex_t lock;
    struct heap_stack **slots;
    size_t cap, used;
    char *arena;
    size_t arena_left;
};

static struct shard shards[SHARDS] = {[0 ... SHARDS - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER}};
static struct heap_stack *_Atomic *_Atomic directory[DIR_CHUNKS];
static _Atomic uint32_t next_id;
static pthread_mutex_t directory_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t hash_frames(const uint64_t *frames, uint32_t n, uint32_t flags)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ flags;
    for (uint32_t i = 0; i < n; i++) {
        h ^= frames[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

static void *arena_take(struct shard *s, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size > s->arena_left) {
        size_t chunk = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        s->arena = pages_alloc(chunk);
        s->arena_left = s->arena ? chunk : 0;
        if (!s->arena)
            return NULL;
    }
    void *p = s->arena;
    s->arena += size;
    s->arena_left -= size;
    return p;
}

static int grow(struct shard *s)
{
    size_t cap = s->cap ? s->cap * 2 : 1024;
    struct heap_stack **slots = pages_alloc(cap * sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < s->cap; i++) {
        struct heap_stack *e = s->slots[i];
        if (!e)
            continue;
        size_t j = (e->hash >> 4) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = e;
    }
    pages_free(s->slots, s->cap * sizeof *s->slots);
    s->slots = slots;
    s->cap = cap;
    return 0;
}

static int publish(struct heap_stack *e)
{
    uint32_t chunk = e->id / DIR_CHUNK;
    if (chunk >= DIR_CHUNKS)
        return -1;
    struct heap_stack *_Atomic *entries = atomic_load(&directory[chunk]);
    if (!entries) {
        pthread_mutex_lock(&directory_lock);
        entries = atomic_load(&directory[chunk]);
        if (!entries) {
            entries = pages_alloc(DIR_CHUNK * sizeof *entries);
            atomic_store(&directory[chunk], entries);
        }
        pthread_mutex_unlock(&directory_lock);
        if (!entries)
            return -1;
    }
    atomic_store_explicit(&entries[e->id % DIR_CHUNK], e, memory_order_release);
    return 0;
}

static struct heap_stack *create(struct shard *s, const uint64_t *frames, uint32_t n,
                                 uint32_t flags, uint64_t hash)
{
    struct heap_stack *e = arena_take(s, sizeof *e + n * (2 * sizeof(uint64_t) + sizeof(uint32_t)));
    if (!e)
        return NULL;
    uint64_t *raw = (uint64_t *)(e + 1);
    uint64_t *offsets = raw + n;
    uint32_t *modules = (uint32_t *)(offsets + n);
    memcpy(raw, frames, n * sizeof *frames);
    modules_resolve(frames, n, modules, offsets);
    e->nframes = n;
    e->flags = flags;
    e->hash = hash;
    e->frames = raw;
    e->modules = modules;
    e->offsets = offsets;
    e->id = atomic_fetch_add(&next_id, 1);
    return publish(e) ? NULL : e;
}

struct heap_stack *heap_stacks_intern(const uint64_t *frames, uint32_t n, uint32_t flags)
{
    uint64_t hash = hash_frames(frames, n, flags);
    struct shard *s = &shards[hash % SHARDS];
    struct heap_stack *found = NULL;
    pthread_mutex_lock(&s->lock);
    if ((s->used + 1) * 2 <= s->cap || !grow(s)) {
        size_t i = (hash >> 4) & (s->cap - 1);
        for (; s->slots[i]; i = (i + 1) & (s->cap - 1)) {
            struct heap_stack *e = s->slots[i];
            if (e->hash == hash && e->nframes == n && e->flags == flags &&
                !memcmp(e->frames, frames, n * sizeof *frames)) {
                found = e;
                break;
            }
        }
        if (!found && (found = create(s, frames, n, flags, hash))) {
            s->slots[i] = found;
            s->used++;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

uint32_t heap_stacks_count(void)
{
    return atomic_load(&next_id);
}

struct heap_stack *heap_stacks_get(uint32_t id)
{
    struct heap_stack *_Atomic *entries = atomic_load(&directory[id / DIR_CHUNK % DIR_CHUNKS]);
    return entries ? atomic_load_explicit(&entries[id % DIR_CHUNK], memory_order_acquire) : NULL;
}

void heap_stacks_fork_prepare(void)
{
    pthread_mutex_lock(&directory_lock);
    for (int i = 0; i < SHARDS; i++)
        pthread_mutex_lock(&shards[i].lock);
}

void heap_stacks_fork_parent(void)
{
    for (int i = SHARDS - 1; i >= 0; i--)
        pthread_mutex_unlock(&shards[i].lock);
    pthread_mutex_unlock(&directory_lock);
}

void heap_stacks_fork_child(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    for (int i = 0; i < SHARDS; i++)
        shards[i].lock = fresh;
    directory_lock = fresh;
}
