/*
 * string_pool.h - numbers distinct strings in order of first sight, so the
 * report writes each name, module and file once and refers to it by index.
 * Sorted once all are in, for a compact listing. Holds pointers only: the
 * strings must outlive the pool.
 */
#ifndef STOKE_STRING_POOL_H
#define STOKE_STRING_POOL_H

#include <stddef.h>
#include <stdint.h>

struct string_pool {
    const char **strings; /* strings[i] is the string of index i */
    size_t count;
    uint32_t *slots;      /* open addressing: index + 1, 0 = empty */
    size_t nslots;        /* a power of two */
};

void string_pool_init(struct string_pool *pool);
void string_pool_free(struct string_pool *pool);

/* Index of s (NULL counts as ""), or -1 when out of memory. */
int64_t string_pool_intern(struct string_pool *pool, const char *s);

/* Puts the strings in byte order (strcmp), so neighbours share long
 * prefixes, and returns rank[old index] = new index (malloc'ed; the caller
 * frees it), or NULL when out of memory (the pool is then unchanged). No
 * string may be interned after. */
uint32_t *string_pool_sort(struct string_pool *pool);

#endif
