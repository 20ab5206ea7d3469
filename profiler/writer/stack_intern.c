/*
 * stack_intern.c - an open-addressing hash table of stacks (see
 * stack_intern.h). Frames live in one growing array; slots hold a hash,
 * an offset into it, a length and the id.
 */
#include "stack_intern.h"

#include <stdlib.h>
#include <string.h>

struct stack_slot {
    uint64_t hash;
    size_t first;
    uint32_t n, flags, id;
    int used;
};

static uint64_t hash_stack(const uint64_t *frames, uint32_t n, uint32_t flags)
{
    uint64_t h = 0xcbf29ce484222325ull ^ flags;
    for (uint32_t i = 0; i < n; i++) {
        h ^= frames[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h ? h : 1;
}

static int grow_slots(struct stack_intern *s)
{
    size_t n = s->nslots ? s->nslots * 2 : 4096;
    struct stack_slot *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < s->nslots; i++) {
        if (!s->slots[i].used)
            continue;
        size_t j = s->slots[i].hash & (n - 1);
        while (slots[j].used)
            j = (j + 1) & (n - 1);
        slots[j] = s->slots[i];
    }
    free(s->slots);
    s->slots = slots;
    s->nslots = n;
    return 0;
}

static int store_frames(struct stack_intern *s, const uint64_t *frames, uint32_t n)
{
    if (s->nframes + n > s->frames_cap) {
        size_t cap = s->frames_cap ? s->frames_cap * 2 : 65536;
        while (cap < s->nframes + n)
            cap *= 2;
        uint64_t *grown = realloc(s->frames, cap * sizeof *grown);
        if (!grown)
            return -1;
        s->frames = grown;
        s->frames_cap = cap;
    }
    memcpy(s->frames + s->nframes, frames, n * sizeof *frames);
    s->nframes += n;
    return 0;
}

uint32_t stack_intern(struct stack_intern *s, const uint64_t *frames, uint32_t n,
                      uint32_t flags, int *is_new)
{
    *is_new = 0;
    if ((s->used + 1) * 2 > s->nslots && grow_slots(s))
        return UINT32_MAX;
    uint64_t h = hash_stack(frames, n, flags);
    size_t mask = s->nslots - 1, i = h & mask;
    for (; s->slots[i].used; i = (i + 1) & mask) {
        struct stack_slot *e = &s->slots[i];
        if (e->hash == h && e->n == n && e->flags == flags &&
            !memcmp(s->frames + e->first, frames, n * sizeof *frames))
            return e->id;
    }
    size_t first = s->nframes;
    if (store_frames(s, frames, n))
        return UINT32_MAX;
    s->slots[i] = (struct stack_slot){h, first, n, flags, s->next_id, 1};
    s->used++;
    *is_new = 1;
    return s->next_id++;
}

void stack_intern_forget(struct stack_intern *s)
{
    if (s->slots)
        memset(s->slots, 0, s->nslots * sizeof *s->slots);
    s->used = 0;
    s->nframes = 0;
}

void stack_intern_free(struct stack_intern *s)
{
    free(s->slots);
    free(s->frames);
    memset(s, 0, sizeof *s);
}
