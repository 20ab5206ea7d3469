/*
 * alloc.h - memory allocation for the offline side (every stage from common/
 * to cli/).
 *
 * Owns: allocation that cannot fail from the caller's point of view, and
 * geometric growth of arrays.
 * Never: used by the agent (profiler/), which must survive without malloc.
 * Running out of memory is the one condition that ends the process here: it
 * prints one line on stderr and exits with status 1.
 */
#ifndef STOKE_ALLOC_H
#define STOKE_ALLOC_H

#include <stddef.h>

void *stoke_xmalloc(size_t size);
void *stoke_xcalloc(size_t n, size_t size);
void *stoke_xrealloc(void *ptr, size_t size);
char *stoke_xstrdup(const char *s);

/* Returns array (of elements of elem_size bytes, *cap of them allocated),
 * reallocated if needed to hold at least need elements; grows geometrically
 * and updates *cap. New space is not initialised. Use as
 *     a = stoke_grow(a, &a_cap, n + 1, sizeof *a);                        */
void *stoke_grow(void *array, size_t *cap, size_t need, size_t elem_size);

#endif
