/*
 * heap_cxx.c - C++ operator new and delete, for allocators that implement
 * them without going through malloc (jemalloc, tcmalloc). With libstdc++'s
 * operators, which call malloc and free, these wrappers only pass the call
 * on: the malloc hooks already see it, and counting it here too would
 * count it twice.
 *
 * Each wrapper calls the next definition in the lookup order; exceptions
 * (std::bad_alloc) pass through unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "heap.h"
#include "common/agent_export.h"

/* -1 unknown, 0 the operators call malloc (libstdc++), 1 they do not. */
static int operators_bypass_malloc = -1;

static void *next_operator(const char *name)
{
    void *fn = dlsym(RTLD_NEXT, name);
    if (operators_bypass_malloc < 0 && fn) {
        Dl_info info;
        operators_bypass_malloc = !(dladdr(fn, &info) && info.dli_fname &&
                                    strstr(info.dli_fname, "libstdc++"));
    }
    return fn;
}

/* The next definition of an operator, looked up once into *slot. */
static void *next(void **slot, const char *name)
{
    if (!*slot)
        *slot = next_operator(name);
    return *slot;
}

static void *track_new(void *p, size_t size)
{
    if (operators_bypass_malloc > 0)
        heap_on_alloc(p, size);
    return p;
}

static void track_delete(void *p)
{
    if (operators_bypass_malloc > 0)
        heap_on_free(p);
}

/* new and new[], plain, nothrow, aligned, aligned nothrow */
AGENT_EXPORT void *_Znwm(size_t size)
{
    static void *slot;
    return track_new(((void *(*)(size_t))next(&slot, "_Znwm"))(size), size);
}

AGENT_EXPORT void *_Znam(size_t size)
{
    static void *slot;
    return track_new(((void *(*)(size_t))next(&slot, "_Znam"))(size), size);
}

AGENT_EXPORT void *_ZnwmRKSt9nothrow_t(size_t size, const void *tag)
{
    static void *slot;
    return track_new(((void *(*)(size_t, const void *))next(&slot, "_ZnwmRKSt9nothrow_t"))(size, tag), size);
}

AGENT_EXPORT void *_ZnamRKSt9nothrow_t(size_t size, const void *tag)
{
    static void *slot;
    return track_new(((void *(*)(size_t, const void *))next(&slot, "_ZnamRKSt9nothrow_t"))(size, tag), size);
}

AGENT_EXPORT void *_ZnwmSt11align_val_t(size_t size, size_t align)
{
    static void *slot;
    return track_new(((void *(*)(size_t, size_t))next(&slot, "_ZnwmSt11align_val_t"))(size, align), size);
}

AGENT_EXPORT void *_ZnamSt11align_val_t(size_t size, size_t align)
{
    static void *slot;
    return track_new(((void *(*)(size_t, size_t))next(&slot, "_ZnamSt11align_val_t"))(size, align), size);
}

AGENT_EXPORT void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t size, size_t align,
                                                      const void *tag)
{
    static void *slot;
    return track_new(((void *(*)(size_t, size_t, const void *))next(&slot, "_ZnwmSt11align_val_tRKSt9nothrow_t"))(size, align, tag), size);
}

AGENT_EXPORT void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t size, size_t align,
                                                      const void *tag)
{
    static void *slot;
    return track_new(((void *(*)(size_t, size_t, const void *))next(&slot, "_ZnamSt11align_val_tRKSt9nothrow_t"))(size, align, tag), size);
}

/* delete and delete[], plain, sized, aligned, sized aligned, nothrow */
AGENT_EXPORT void _ZdlPv(void *p)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *))next(&slot, "_ZdlPv"))(p);
}

AGENT_EXPORT void _ZdaPv(void *p)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *))next(&slot, "_ZdaPv"))(p);
}

AGENT_EXPORT void _ZdlPvm(void *p, size_t size)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, size_t))next(&slot, "_ZdlPvm"))(p, size);
}

AGENT_EXPORT void _ZdaPvm(void *p, size_t size)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, size_t))next(&slot, "_ZdaPvm"))(p, size);
}

AGENT_EXPORT void _ZdlPvSt11align_val_t(void *p, size_t align)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, size_t))next(&slot, "_ZdlPvSt11align_val_t"))(p, align);
}

AGENT_EXPORT void _ZdaPvSt11align_val_t(void *p, size_t align)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, size_t))next(&slot, "_ZdaPvSt11align_val_t"))(p, align);
}

AGENT_EXPORT void _ZdlPvmSt11align_val_t(void *p, size_t size, size_t align)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, size_t, size_t))next(&slot, "_ZdlPvmSt11align_val_t"))(p, size, align);
}

AGENT_EXPORT void _ZdaPvmSt11align_val_t(void *p, size_t size, size_t align)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, size_t, size_t))next(&slot, "_ZdaPvmSt11align_val_t"))(p, size, align);
}

AGENT_EXPORT void _ZdlPvRKSt9nothrow_t(void *p, const void *tag)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, const void *))next(&slot, "_ZdlPvRKSt9nothrow_t"))(p, tag);
}

AGENT_EXPORT void _ZdaPvRKSt9nothrow_t(void *p, const void *tag)
{
    static void *slot;
    track_delete(p);
    ((void (*)(void *, const void *))next(&slot, "_ZdaPvRKSt9nothrow_t"))(p, tag);
}
