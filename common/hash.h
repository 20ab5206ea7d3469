/*
 * hash.h - the one hash function the offline side uses for its lookup
 * tables (frames, stacks, strings, address caches).
 *
 * Owns: mixing integers and bytes into a 64-bit hash.
 * Never: allocates or holds state; it is not a cryptographic hash.
 */
#ifndef STOKE_HASH_H
#define STOKE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Folds v into the running hash h (splitmix64 finaliser over h ^ v). */
static inline uint64_t stoke_hash_mix(uint64_t h, uint64_t v)
{
    uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Hash of a byte string (FNV-1a, then mixed). */
static inline uint64_t stoke_hash_bytes(const void *data, size_t len)
{
    const uint8_t *b = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return stoke_hash_mix(h, len);
}

#endif
