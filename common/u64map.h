/*
 * u64map.h - a map from 64-bit keys to 32-bit values (open addressing),
 * for the loader's per-trace lookups (thread id -> frame, thread + stack
 * id -> profile stack).
 *
 * Never: allocates per entry.
 */
#ifndef STOKE_U64MAP_H
#define STOKE_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct stoke_u64map {
    uint64_t *keys;
    uint32_t *values;
    uint8_t *used;
    size_t cap, count;
};

/* Returns 1 and sets *value when key is present, else 0. */
int stoke_u64map_get(const struct stoke_u64map *m, uint64_t key, uint32_t *value);

/* Inserts or replaces. */
void stoke_u64map_put(struct stoke_u64map *m, uint64_t key, uint32_t value);

void stoke_u64map_free(struct stoke_u64map *m);

#endif
