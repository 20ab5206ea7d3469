/*
 * arena.h - a string arena: many small immutable strings, freed at once.
 *
 * Owns: the memory of copied strings.
 * Never: deduplicates (that is the caller's interning table) or frees one
 * string alone.
 */
#ifndef STOKE_ARENA_H
#define STOKE_ARENA_H

#include <stddef.h>

struct stoke_arena_chunk;

struct stoke_arena {
    struct stoke_arena_chunk *chunks; /* newest first */
};

/* Copies s[0..len) plus a NUL into the arena and returns the copy. */
const char *stoke_arena_strndup(struct stoke_arena *a, const char *s, size_t len);

void stoke_arena_free(struct stoke_arena *a);

#endif
