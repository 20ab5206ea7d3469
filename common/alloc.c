/*
 * alloc.c - allocation helpers for the offline side; see alloc.h.
 *
 * Owns: the out-of-memory policy (one line, exit 1).
 * Never: returns NULL.
 */
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static void *checked(void *p)
{
    if (!p) {
        fputs("stoke: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

void *stoke_xmalloc(size_t size)
{
    return checked(malloc(size ? size : 1));
}

void *stoke_xcalloc(size_t n, size_t size)
{
    return checked(calloc(n ? n : 1, size ? size : 1));
}

void *stoke_xrealloc(void *ptr, size_t size)
{
    return checked(realloc(ptr, size ? size : 1));
}

char *stoke_xstrdup(const char *s)
{
    return checked(strdup(s ? s : ""));
}

void *stoke_grow(void *array, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return array;
    size_t new_cap = *cap ? *cap : 16;
    while (new_cap < need)
        new_cap *= 2;
    if (new_cap > SIZE_MAX / elem_size)
        return checked(NULL);
    *cap = new_cap;
    return stoke_xrealloc(array, new_cap * elem_size);
}
