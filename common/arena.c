/*
 * arena.c - the string arena; see arena.h.
 *
 * Owns: chunk allocation (64 KiB chunks, larger strings get their own).
 * Never: moves a string once returned.
 */
#include "arena.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"

#define CHUNK_SIZE (64 * 1024)

struct stoke_arena_chunk {
    struct stoke_arena_chunk *next;
    size_t used, size;
    char data[];
};

/* A string too big for a shared chunk gets its own chunk, linked behind the
 * current one so the current one keeps filling up. */
static struct stoke_arena_chunk *new_chunk(struct stoke_arena *a, size_t need)
{
    int own = need > CHUNK_SIZE / 4;
    size_t size = own ? need : CHUNK_SIZE;
    struct stoke_arena_chunk *c = stoke_xmalloc(sizeof *c + size);
    c->used = 0;
    c->size = size;
    if (own && a->chunks) {
        c->next = a->chunks->next;
        a->chunks->next = c;
    } else {
        c->next = a->chunks;
        a->chunks = c;
    }
    return c;
}

const char *stoke_arena_strndup(struct stoke_arena *a, const char *s, size_t len)
{
    struct stoke_arena_chunk *c = a->chunks;
    if (!c || c->size - c->used < len + 1)
        c = new_chunk(a, len + 1);
    char *copy = c->data + c->used;
    memcpy(copy, s, len);
    copy[len] = '\0';
    c->used += len + 1;
    return copy;
}

void stoke_arena_free(struct stoke_arena *a)
{
    while (a->chunks) {
        struct stoke_arena_chunk *next = a->chunks->next;
        free(a->chunks);
        a->chunks = next;
    }
}
