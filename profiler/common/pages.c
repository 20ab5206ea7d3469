/*
 * pages.c - see pages.h.
 */
#include "pages.h"

#include <sys/mman.h>

void *pages_alloc(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void pages_free(void *p, size_t size)
{
    if (p)
        munmap(p, size);
}
