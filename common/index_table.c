/*
 * index_table.c - the hash index; see index_table.h.
 *
 * Owns: probing (linear) and growth (doubling, from 1024 slots).
 * Never: removes an entry.
 */
#include "index_table.h"

#include <stdlib.h>
#include "alloc.h"

static void insert_slot(struct stoke_index_table *t, uint64_t hash, uint32_t index)
{
    size_t mask = t->cap - 1;
    size_t i = hash & mask;
    while (t->slots[i])
        i = (i + 1) & mask;
    t->slots[i] = index + 1;
    t->hashes[i] = hash;
}

static void grow_if_needed(struct stoke_index_table *t)
{
    if ((t->count + 1) * 2 <= t->cap)
        return;
    struct stoke_index_table old = *t;
    t->cap = old.cap ? old.cap * 2 : 1024;
    t->slots = stoke_xcalloc(t->cap, sizeof *t->slots);
    t->hashes = stoke_xmalloc(t->cap * sizeof *t->hashes);
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i])
            insert_slot(t, old.hashes[i], old.slots[i] - 1);
    free(old.slots);
    free(old.hashes);
}

void stoke_index_table_add(struct stoke_index_table *t, uint64_t hash, uint32_t index)
{
    grow_if_needed(t);
    insert_slot(t, hash, index);
    t->count++;
}

void stoke_index_table_free(struct stoke_index_table *t)
{
    free(t->slots);
    free(t->hashes);
}

int64_t stoke_index_table_next(const struct stoke_index_table *t, uint64_t hash, size_t *pos)
{
    if (!t->cap)
        return -1;
    size_t mask = t->cap - 1;
    size_t i = *pos == SIZE_MAX ? (hash & mask) : ((*pos + 1) & mask);
    for (; t->slots[i]; i = (i + 1) & mask) {
        if (t->hashes[i] == hash) {
            *pos = i;
            return t->slots[i] - 1;
        }
    }
    return -1;
}
