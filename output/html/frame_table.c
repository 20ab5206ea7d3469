/*
 * frame_table.c - interning of the report's frames by content.
 *
 * Owns: the hash table over frame keys and the index order (first sight).
 * Never: looks at the strings themselves (keys hold pool indices).
 */
#include "frame_table.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"

#define INITIAL_SLOTS 1024

void frame_table_init(struct frame_table *t)
{
    memset(t, 0, sizeof(*t));
}

void frame_table_free(struct frame_table *t)
{
    free(t->frames);
    free(t->slots);
    frame_table_init(t);
}

static uint64_t key_hash(const struct frame_key *k)
{
    uint64_t h = stoke_hash_mix(0, k->name);
    h = stoke_hash_mix(h, k->module);
    h = stoke_hash_mix(h, k->file);
    h = stoke_hash_mix(h, (uint64_t)k->column << 32 | k->line);
    return stoke_hash_mix(h, (uint64_t)k->tier << 16 | (uint64_t)k->kind << 8 | k->inlined);
}

static int same_key(const struct frame_key *a, const struct frame_key *b)
{
    return a->name == b->name && a->module == b->module && a->file == b->file &&
           a->line == b->line && a->column == b->column && a->kind == b->kind &&
           a->inlined == b->inlined && a->tier == b->tier;
}

/* The slot holding *k, or the empty slot where it belongs. */
static uint32_t *find_slot(const struct frame_table *t, const struct frame_key *k)
{
    size_t mask = t->nslots - 1;
    for (size_t i = key_hash(k) & mask;; i = (i + 1) & mask) {
        uint32_t *slot = &t->slots[i];
        if (*slot == 0 || same_key(&t->frames[*slot - 1], k))
            return slot;
    }
}

/* Keeps the table at most half full. */
static int grow(struct frame_table *t)
{
    size_t nslots = t->nslots ? t->nslots * 2 : INITIAL_SLOTS;
    struct frame_key *frames = realloc(t->frames, nslots / 2 * sizeof(*frames));
    uint32_t *slots = calloc(nslots, sizeof(*slots));
    if (frames)
        t->frames = frames;
    if (!frames || !slots) {
        free(slots);
        return -1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    for (size_t i = 0; i < t->count; i++)
        *find_slot(t, &t->frames[i]) = (uint32_t)(i + 1);
    return 0;
}

int64_t frame_table_intern(struct frame_table *t, const struct frame_key *k)
{
    if (t->count + 1 > t->nslots / 2 && grow(t) < 0)
        return -1;
    uint32_t *slot = find_slot(t, k);
    if (*slot == 0) {
        t->frames[t->count] = *k;
        *slot = (uint32_t)++t->count;
    }
    return *slot - 1;
}
