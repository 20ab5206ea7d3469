/*
 * u64map.c - the 64-bit key map; see u64map.h.
 *
 * Owns: probing (linear) and growth (kept at most half full).
 * Never: removes entries (no user needs it).
 */
#include "u64map.h"

#include <stdlib.h>
#include "alloc.h"
#include "hash.h"

static size_t find_slot(const struct stoke_u64map *m, uint64_t key)
{
    size_t mask = m->cap - 1;
    size_t i = stoke_hash_mix(0, key) & mask;
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

int stoke_u64map_get(const struct stoke_u64map *m, uint64_t key, uint32_t *value)
{
    if (!m->cap)
        return 0;
    size_t i = find_slot(m, key);
    if (!m->used[i])
        return 0;
    *value = m->values[i];
    return 1;
}

static void grow(struct stoke_u64map *m)
{
    struct stoke_u64map old = *m;
    m->cap = old.cap ? old.cap * 2 : 256;
    m->keys = stoke_xmalloc(m->cap * sizeof *m->keys);
    m->values = stoke_xmalloc(m->cap * sizeof *m->values);
    m->used = stoke_xcalloc(m->cap, 1);
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.used[i])
            continue;
        size_t j = find_slot(m, old.keys[i]);
        m->used[j] = 1;
        m->keys[j] = old.keys[i];
        m->values[j] = old.values[i];
    }
    stoke_u64map_free(&old);
}

void stoke_u64map_put(struct stoke_u64map *m, uint64_t key, uint32_t value)
{
    if ((m->count + 1) * 2 > m->cap)
        grow(m);
    size_t i = find_slot(m, key);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->count++;
    }
    m->values[i] = value;
}

void stoke_u64map_free(struct stoke_u64map *m)
{
    free(m->keys);
    free(m->values);
    free(m->used);
}
