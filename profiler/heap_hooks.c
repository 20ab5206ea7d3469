/*
 * heap_hooks.c - the malloc family, interposed: each hook calls the
 * allocator underneath (glibc, jemalloc, tcmalloc: whatever comes next in
 * the lookup order) and tells heap.c what happened.
 *
 * Before the real functions are known (dlsym itself allocates), requests
 * are served from a small static bootstrap arena; its blocks are never
 * freed and are recognized by address. Sizes, pointers, errno and failures
 * pass through exactly as the allocator gave them. A free is reported
 * before the memory is released, so a concurrent allocation that reuses the
 * address cannot be mistaken for it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "heap.h"

#define BOOTSTRAP_BYTES (256 * 1024)

struct allocator {
    void *(*malloc)(size_t);
    void (*free)(void *);
    void *(*calloc)(size_t, size_t);
    void *(*realloc)(void *, size_t);
    int (*posix_memalign)(void **, size_t, size_t);
    void *(*aligned_alloc)(size_t, size_t);
    void *(*memalign)(size_t, size_t);
    void *(*valloc)(size_t);
    void *(*pvalloc)(size_t);
    size_t (*malloc_usable_size)(void *);
};

static struct allocator real;
static _Atomic int resolving, resolved;

static _Alignas(16) char bootstrap[BOOTSTRAP_BYTES];
static _Atomic size_t bootstrap_used;

/* Serves an allocation from the bootstrap arena; each block is preceded by
 * its size so realloc and malloc_usable_size work on it. */
static void *bootstrap_alloc(size_t size)
{
    size_t need = 16 + ((size + 15) & ~(size_t)15);
    size_t at = atomic_fetch_add(&bootstrap_used, need);
    if (at + need > BOOTSTRAP_BYTES) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(bootstrap + at, &size, sizeof size);
    return bootstrap + at + 16;
}

static int from_bootstrap(const void *p)
{
    return (const char *)p >= bootstrap && (const char *)p < bootstrap + BOOTSTRAP_BYTES;
}

static size_t bootstrap_size(const void *p)
{
    size_t size;
    memcpy(&size, (const char *)p - 16, sizeof size);
    return size;
}

static void resolve(void)
{
    if (atomic_exchange(&resolving, 1))
        return;
    struct allocator found = {
        .malloc = dlsym(RTLD_NEXT, "malloc"),
        .free = dlsym(RTLD_NEXT, "free"),
        .calloc = dlsym(RTLD_NEXT, "calloc"),
        .realloc = dlsym(RTLD_NEXT, "realloc"),
        .posix_memalign = dlsym(RTLD_NEXT, "posix_memalign"),
        .aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc"),
        .memalign = dlsym(RTLD_NEXT, "memalign"),
        .valloc = dlsym(RTLD_NEXT, "valloc"),
        .pvalloc = dlsym(RTLD_NEXT, "pvalloc"),
        .malloc_usable_size = dlsym(RTLD_NEXT, "malloc_usable_size"),
    };
    real = found;
    atomic_store_explicit(&resolved, found.free && found.malloc, memory_order_release);
    atomic_store(&resolving, 0);
}

/* 1 when the real allocator is known; 0 while dlsym runs (bootstrap). */
static int ready(void)
{
    if (atomic_load_explicit(&resolved, memory_order_acquire))
        return 1;
    resolve();
    return atomic_load_explicit(&resolved, memory_order_acquire);
}

AGENT_EXPORT void *malloc(size_t size)
{
    if (!ready())
        return bootstrap_alloc(size);
    void *p = real.malloc(size);
    heap_on_alloc(p, size);
    return p;
}

AGENT_EXPORT void free(void *p)
{
    if (!p || from_bootstrap(p))
        return;
    heap_on_free(p);
    if (ready())
        real.free(p);
}

AGENT_EXPORT void *calloc(size_t n, size_t size)
{
    if (!ready()) {
        size_t total;
        if (__builtin_mul_overflow(n, size, &total)) {
            errno = ENOMEM;
            return NULL;
        }
        return bootstrap_alloc(total); /* static storage: already zero */
    }
    void *p = real.calloc(n, size);
    if (p)
        heap_on_alloc(p, n * size);
    return p;
}

static void *realloc_from_bootstrap(void *p, size_t size)
{
    void *q = malloc(size);
    if (q) {
        size_t old = bootstrap_size(p);
        memcpy(q, p, old < size ? old : size);
    }
    return q;
}

AGENT_EXPORT void *realloc(void *p, size_t size)
{
    if (p && from_bootstrap(p))
        return realloc_from_bootstrap(p, size);
    if (!ready())
        return p ? NULL : bootstrap_alloc(size);
    struct heap_taken old;
    heap_take(p, &old);
    void *q = real.realloc(p, size);
    if (q)
        heap_on_alloc(q, size);
    else if (p && size)
        heap_put_back(&old); /* failed: the old block lives on */
    return q;
}

AGENT_EXPORT void *reallocarray(void *p, size_t n, size_t size)
{
    size_t total;
    if (__builtin_mul_overflow(n, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, total);
}

AGENT_EXPORT int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (!ready())
        return ENOMEM;
    int err = real.posix_memalign(out, alignment, size);
    if (!err)
        heap_on_alloc(*out, size);
    return err;
}

AGENT_EXPORT void *aligned_alloc(size_t alignment, size_t size)
{
    if (!ready())
        return NULL;
    void *p = real.aligned_alloc(alignment, size);
    heap_on_alloc(p, size);
    return p;
}

AGENT_EXPORT void *memalign(size_t alignment, size_t size)
{
    if (!ready())
        return NULL;
    void *p = real.memalign(alignment, size);
    heap_on_alloc(p, size);
    return p;
}

AGENT_EXPORT void *valloc(size_t size)
{
    if (!ready())
        return NULL;
    void *p = real.valloc(size);
    heap_on_alloc(p, size);
    return p;
}

AGENT_EXPORT void *pvalloc(size_t size)
{
    if (!ready())
        return NULL;
    void *p = real.pvalloc(size);
    heap_on_alloc(p, size);
    return p;
}

AGENT_EXPORT size_t malloc_usable_size(void *p)
{
    if (p && from_bootstrap(p))
        return bootstrap_size(p);
    return ready() ? real.malloc_usable_size(p) : 0;
}
