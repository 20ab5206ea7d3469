/*
 * string_pool.c - interning of the report's strings by content.
 *
 * Owns: the hash table and the index order (first sight, then sorted).
 * Never: copies or frees the strings themselves.
 */
#include "string_pool.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"

#define INITIAL_SLOTS 1024

void string_pool_init(struct string_pool *pool)
{
    memset(pool, 0, sizeof(*pool));
}

void string_pool_free(struct string_pool *pool)
{
    free(pool->strings);
    free(pool->slots);
    string_pool_init(pool);
}

/* The slot holding s, or the empty slot where it belongs. */
static uint32_t *find_slot(const struct string_pool *pool, const char *s)
{
    size_t mask = pool->nslots - 1;
    for (size_t i = stoke_hash_bytes(s, strlen(s)) & mask;; i = (i + 1) & mask) {
        uint32_t *slot = &pool->slots[i];
        if (*slot == 0 || strcmp(pool->strings[*slot - 1], s) == 0)
            return slot;
    }
}

/* Keeps the table at most half full. */
static int grow(struct string_pool *pool)
{
    size_t nslots = pool->nslots ? pool->nslots * 2 : INITIAL_SLOTS;
    const char **strings = realloc(pool->strings, nslots / 2 * sizeof(*strings));
    uint32_t *slots = calloc(nslots, sizeof(*slots));
    if (!strings || !slots) {
        if (strings)
            pool->strings = strings;
        free(slots);
        return -1;
    }
    free(pool->slots);
    pool->strings = strings;
    pool->slots = slots;
    pool->nslots = nslots;
    for (size_t i = 0; i < pool->count; i++)
        *find_slot(pool, pool->strings[i]) = (uint32_t)(i + 1);
    return 0;
}

int64_t string_pool_intern(struct string_pool *pool, const char *s)
{
    if (!s)
        s = "";
    if (pool->count + 1 > pool->nslots / 2 && grow(pool) < 0)
        return -1;
    uint32_t *slot = find_slot(pool, s);
    if (*slot == 0) {
        pool->strings[pool->count] = s;
        *slot = (uint32_t)++pool->count;
    }
    return *slot - 1;
}

/* qsort has no context argument: indices are sorted through this pointer. */
static const char *const *sorting;

static int by_string(const void *a, const void *b)
{
    return strcmp(sorting[*(const uint32_t *)a], sorting[*(const uint32_t *)b]);
}

uint32_t *string_pool_sort(struct string_pool *pool)
{
    size_t n = pool->count;
    uint32_t *order = malloc((n ? n : 1) * sizeof(*order));
    uint32_t *rank = malloc((n ? n : 1) * sizeof(*rank));
    const char **sorted = malloc((n ? n : 1) * sizeof(*sorted));
    if (!order || !rank || !sorted) {
        free(order);
        free(rank);
        free(sorted);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    sorting = pool->strings;
    qsort(order, n, sizeof(*order), by_string);
    for (size_t i = 0; i < n; i++) {
        rank[order[i]] = (uint32_t)i;
        sorted[i] = pool->strings[order[i]];
    }
    memcpy(pool->strings, sorted, n * sizeof(*sorted));
    free(sorted);
    free(order);
    return rank;
}
