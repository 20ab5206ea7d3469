/*
 * own_malloc.c - a program with an allocator of its own: it defines and
 * exports malloc, free, calloc and realloc (a bump allocator over a static
 * arena; free does nothing), as programs linking jemalloc or tcmalloc
 * statically do. Its leak_own function leaks 100 blocks of 1000 bytes.
 * Prints how many blocks its allocator served to it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static _Alignas(16) unsigned char arena[64 << 20];
static size_t used;

void *malloc(size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size > sizeof arena - used)
        return NULL;
    void *p = arena + used;
    used += size;
    return p;
}

void free(void *p)
{
    (void)p;
}

void *calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    void *p = malloc(n * size);
    return p ? memset(p, 0, n * size) : NULL;
}

void *realloc(void *p, size_t size)
{
    void *q = malloc(size);
    if (q && p)
        memcpy(q, p, size); /* the bump arena always holds size bytes past p */
    return q;
}

static __attribute__((noipa)) int leak_own(void)
{
    int served = 0;
    for (int i = 0; i < 100; i++)
        served += malloc(1000) != NULL;
    return served;
}

int main(void)
{
    printf("own_malloc: %d blocks from the program's own allocator\n", leak_own());
    return 0;
}
