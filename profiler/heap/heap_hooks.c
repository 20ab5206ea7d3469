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

#include "heap.h"
#include "heap_hooks.h"
#include "common/agent_export.h"

#define BOOTSTRAP_BYTES (256 * 1024)

/* The allocator underneath. malloc, free, calloc and realloc start as the
 * first_* functions below, which look the real ones up at the first
 * allocation (the loader's and libc's own come before any constructor),
 * so the hot hooks test nothing before they call on; the agent's
 * constructor makes sure the lookup is done (heap_hooks_resolve). */
struct allocator {
    _Atomic(void *(*)(size_t)) malloc;
    _Atomic(void (*)(void *)) free;
    _Atomic(void *(*)(size_t, size_t)) calloc;
    _Atomic(void *(*)(void *, size_t)) realloc;
    int (*posix_memalign)(void **, size_t, size_t);
    void *(*aligned_alloc)(size_t, size_t);
    void *(*memalign)(size_t, size_t);
    void *(*valloc)(size_t);
    void *(*pvalloc)(size_t);
    size_t (*malloc_usable_size)(void *);
};

#define NEXT(fn) atomic_load_explicit(&real.fn, memory_order_acquire)

static void *first_malloc(size_t size);
static void first_free(void *p);
static void *first_calloc(size_t n, size_t size);
static void *first_realloc(void *p, size_t size);

static struct allocator real = {
    .malloc = first_malloc,
    .free = first_free,
    .calloc = first_calloc,
    .realloc = first_realloc,
};
static _Atomic int resolving, resolved;

static _Alignas(16) char bootstrap[BOOTSTRAP_BYTES];
static _Atomic size_t bootstrap_used;

/* Serves an allocation from the bootstrap arena; each block is preceded by
 * its size so realloc and malloc_usable_size work on it, and pinned in the
 * free filter so that free sends it down its slow path, which keeps it
 * from the allocator. */
static void *bootstrap_alloc(size_t size)
{
    size_t need = 16 + ((size + 15) & ~(size_t)15);
    size_t at = atomic_fetch_add(&bootstrap_used, need);
    if (at + need > BOOTSTRAP_BYTES) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(bootstrap + at, &size, sizeof size);
    heap_live_filter_pin((uintptr_t)(bootstrap + at + 16));
    return bootstrap + at + 16;
}

static int from_bootstrap(const void *p)
{
    return (uintptr_t)p - (uintptr_t)bootstrap < BOOTSTRAP_BYTES;
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
    void *(*next_malloc)(size_t) = dlsym(RTLD_NEXT, "malloc");
    void (*next_free)(void *) = dlsym(RTLD_NEXT, "free");
    void *(*next_calloc)(size_t, size_t) = dlsym(RTLD_NEXT, "calloc");
    void *(*next_realloc)(void *, size_t) = dlsym(RTLD_NEXT, "realloc");
    real.posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real.aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real.memalign = dlsym(RTLD_NEXT, "memalign");
    real.valloc = dlsym(RTLD_NEXT, "valloc");
    real.pvalloc = dlsym(RTLD_NEXT, "pvalloc");
    real.malloc_usable_size = dlsym(RTLD_NEXT, "malloc_usable_size");
    if (next_malloc && next_free && next_calloc && next_realloc) {
        atomic_store(&real.malloc, next_malloc);
        atomic_store(&real.free, next_free);
        atomic_store(&real.calloc, next_calloc);
        atomic_store(&real.realloc, next_realloc);
        atomic_store_explicit(&resolved, 1, memory_order_release);
    }
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

static void *first_malloc(size_t size)
{
    return ready() ? NEXT(malloc)(size) : bootstrap_alloc(size);
}

static void first_free(void *p)
{
    if (ready())
        NEXT(free)(p);
}

static void *first_calloc(size_t n, size_t size)
{
    if (ready())
        return NEXT(calloc)(n, size);
    size_t total;
    if (__builtin_mul_overflow(n, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return bootstrap_alloc(total); /* static storage: already zero */
}

static void *first_realloc(void *p, size_t size)
{
    if (ready())
        return NEXT(realloc)(p, size);
    return p ? NULL : bootstrap_alloc(size);
}

/* The slow paths, kept out of line so the hooks stay a few instructions. */
static __attribute__((noinline)) void *malloc_sampled(size_t size)
{
    void *p = NEXT(malloc)(size);
    heap_sampled_alloc(p, size);
    return p;
}

static __attribute__((noinline)) void free_maybe_sampled(void *p)
{
    if (from_bootstrap(p))
        return;
    int after = heap_free_begin(p);
    NEXT(free)(p);
    if (after)
        heap_free_end(p);
}

int heap_hooks_present(void)
{
    return 1;
}

void heap_hooks_resolve(void)
{
    ready();
    heap_cxx_resolve();
}

AGENT_EXPORT void *malloc(size_t size)
{
    if (heap_alloc_is_sampled(size))
        return malloc_sampled(size);
    return NEXT(malloc)(size);
}

AGENT_EXPORT void free(void *p)
{
    if (__builtin_expect(heap_live_maybe((uintptr_t)p), 0))
        free_maybe_sampled(p);
    else
        NEXT(free)(p);
}

AGENT_EXPORT void *calloc(size_t n, size_t size)
{
    size_t total;
    if (__builtin_mul_overflow(n, size, &total))
        return NEXT(calloc)(n, size); /* fails as the allocator fails it */
    if (!heap_alloc_is_sampled(total))
        return NEXT(calloc)(n, size);
    void *p = NEXT(calloc)(n, size);
    heap_sampled_alloc(p, total);
    return p;
}

static void *realloc_from_bootstrap(void *p, size_t size, int sampled)
{
    void *q = NEXT(malloc)(size);
    if (sampled)
        heap_sampled_alloc(q, size);
    if (q) {
        size_t old = bootstrap_size(p);
        memcpy(q, p, old < size ? old : size);
    }
    return q;
}

/* The old block is taken out before the allocator may reuse its address,
 * and put back as it was if the allocator fails. */
static __attribute__((noinline)) void *realloc_tracked(void *p, size_t size, int sampled)
{
    if (from_bootstrap(p))
        return realloc_from_bootstrap(p, size, sampled);
    struct heap_taken old;
    heap_take(p, &old);
    void *q = NEXT(realloc)(p, size);
    heap_realloc_done(&old, !q && p && size); /* failed: the old block lives on */
    if (sampled)
        heap_sampled_alloc(q, size);
    return q;
}

AGENT_EXPORT void *realloc(void *p, size_t size)
{
    int sampled = heap_alloc_is_sampled(size);
    if (__builtin_expect(sampled || heap_live_maybe((uintptr_t)p), 0))
        return realloc_tracked(p, size, sampled);
    return NEXT(realloc)(p, size);
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
