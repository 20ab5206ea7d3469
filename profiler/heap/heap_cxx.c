/*
 * heap_cxx.c - C++ operator new and delete, for allocators that implement
 * them without going through malloc (jemalloc, tcmalloc). With libstdc++'s
 * operators, which call malloc and free, these wrappers only pass the call
 * on: the malloc hooks already see it, and counting it here too would
 * count it twice.
 *
 * Each wrapper calls the next definition in the lookup order; exceptions
 * (std::bad_alloc) pass through unchanged. The next definitions are looked
 * up once, as the agent starts (heap_hooks_resolve), or by the first
 * operator called before that (another library's constructor), never
 * later: an operator that no library defined then (a C program that loads
 * a C++ library with dlopen later) is served by malloc and free, as
 * libstdc++'s own are, and what it allocates is seen by the malloc hooks.
 * Must never: throw itself, or call dlsym once the agent has started.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "heap_hooks.h"
#include "common/agent_export.h"
#include "common/log.h"

/* Every operator: NEW(name, parameters, arguments, alignment, nothrow) and
 * DELETE(name, parameters, arguments); new and new[], plain, nothrow,
 * aligned, aligned nothrow; delete and delete[], plain, sized, aligned,
 * sized aligned, nothrow. */
#define CXX_OPERATORS(NEW, DELETE)                                                               \
    NEW(_Znwm, (size_t size), (size), 0, 0)                                                      \
    NEW(_Znam, (size_t size), (size), 0, 0)                                                      \
    NEW(_ZnwmRKSt9nothrow_t, (size_t size, const void *tag), (size, tag), 0, 1)                  \
    NEW(_ZnamRKSt9nothrow_t, (size_t size, const void *tag), (size, tag), 0, 1)                  \
    NEW(_ZnwmSt11align_val_t, (size_t size, size_t align), (size, align), align, 0)              \
    NEW(_ZnamSt11align_val_t, (size_t size, size_t align), (size, align), align, 0)              \
    NEW(_ZnwmSt11align_val_tRKSt9nothrow_t, (size_t size, size_t align, const void *tag),        \
        (size, align, tag), align, 1)                                                            \
    NEW(_ZnamSt11align_val_tRKSt9nothrow_t, (size_t size, size_t align, const void *tag),        \
        (size, align, tag), align, 1)                                                            \
    DELETE(_ZdlPv, (void *p), (p))                                                               \
    DELETE(_ZdaPv, (void *p), (p))                                                               \
    DELETE(_ZdlPvm, (void *p, size_t size), (p, size))                                           \
    DELETE(_ZdaPvm, (void *p, size_t size), (p, size))                                           \
    DELETE(_ZdlPvSt11align_val_t, (void *p, size_t align), (p, align))                           \
    DELETE(_ZdaPvSt11align_val_t, (void *p, size_t align), (p, align))                           \
    DELETE(_ZdlPvmSt11align_val_t, (void *p, size_t size, size_t align), (p, size, align))       \
    DELETE(_ZdaPvmSt11align_val_t, (void *p, size_t size, size_t align), (p, size, align))       \
    DELETE(_ZdlPvRKSt9nothrow_t, (void *p, const void *tag), (p, tag))                           \
    DELETE(_ZdaPvRKSt9nothrow_t, (void *p, const void *tag), (p, tag))

/* The next definition of each operator (NULL: none), and whether they
 * bypass malloc. */
static struct {
#define NEW_FIELD(name, parameters, arguments, alignment, nothrow) void *(*name) parameters;
#define DELETE_FIELD(name, parameters, arguments) void (*name) parameters;
    CXX_OPERATORS(NEW_FIELD, DELETE_FIELD)
#undef NEW_FIELD
#undef DELETE_FIELD
    int bypass_malloc;
} next;
static _Atomic int resolved;

/* libstdc++'s operators call malloc; others (jemalloc's, tcmalloc's) do not. */
static int bypasses_malloc(void *operator)
{
    Dl_info info;
    return !(dladdr(operator, &info) && info.dli_fname && strstr(info.dli_fname, "libstdc++"));
}

/* A program without a C++ runtime (no operator new to be found) has none
 * of the others either: it is not asked for each, as every failed lookup
 * costs the loader a search of every object. The failed lookup's message
 * is taken back at once, so the program's dlerror() never sees it. */
void heap_cxx_resolve(void)
{
    if (atomic_load_explicit(&resolved, memory_order_acquire))
        return;
    void *plain_new = dlsym(RTLD_NEXT, "_Znwm");
    if (!plain_new)
        dlerror();
    if (plain_new) {
#define NEW_LOOKUP(name, parameters, arguments, alignment, nothrow) \
    next.name = (void *(*)parameters)dlsym(RTLD_NEXT, #name);
#define DELETE_LOOKUP(name, parameters, arguments) \
    next.name = (void (*)parameters)dlsym(RTLD_NEXT, #name);
        CXX_OPERATORS(NEW_LOOKUP, DELETE_LOOKUP)
#undef NEW_LOOKUP
#undef DELETE_LOOKUP
        next.bypass_malloc = bypasses_malloc(plain_new);
    }
    atomic_store_explicit(&resolved, 1, memory_order_release);
}

static void ready(void)
{
    if (__builtin_expect(!atomic_load_explicit(&resolved, memory_order_acquire), 0))
        heap_cxx_resolve();
}

/* An operator no library defined at the start, as libstdc++'s: malloc,
 * or aligned memory. What it allocates goes through the malloc hooks. A
 * request that cannot be served ends the program, as a C++ runtime built
 * without exceptions does: this C code cannot throw std::bad_alloc. */
static void *new_from_malloc(size_t size, size_t align, int nothrow)
{
    void *p = NULL;
    size = size ? size : 1;
    if (!align)
        p = malloc(size);
    else if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size))
        p = NULL;
    if (!p && !nothrow) {
        agent_log("out of memory in a C++ operator new that no library defined as the program "
                  "started; ending the program");
        abort();
    }
    return p;
}

static void *track_new(void *p, size_t size)
{
    if (next.bypass_malloc)
        heap_on_alloc(p, size);
    return p;
}

static void track_delete(void *p)
{
    if (next.bypass_malloc)
        heap_on_free(p);
}

#define NEW_WRAPPER(name, parameters, arguments, alignment, nothrow)                          \
    AGENT_EXPORT void *name parameters                                                        \
    {                                                                                         \
        ready();                                                                              \
        if (!next.name)                                                                       \
            return new_from_malloc(size, alignment, nothrow);                                 \
        return track_new(next.name arguments, size);                                          \
    }
#define DELETE_WRAPPER(name, parameters, arguments)                                           \
    AGENT_EXPORT void name parameters                                                         \
    {                                                                                         \
        ready();                                                                              \
        track_delete(p);                                                                      \
        if (next.name)                                                                        \
            next.name arguments;                                                              \
        else                                                                                  \
            free(p);                                                                          \
    }
CXX_OPERATORS(NEW_WRAPPER, DELETE_WRAPPER)
