/*
 * real_libc.c - see real_libc.h.
 */
#define _GNU_SOURCE
#include "real_libc.h"

#include <stdatomic.h>

static struct real_libc table;
static _Atomic int resolved;

void real_libc_resolve(void)
{
    if (atomic_load_explicit(&resolved, memory_order_acquire))
        return;
#define REAL_LIBC_LOOKUP(name) table.name = (__typeof__(&name))dlsym(RTLD_NEXT, #name);
    REAL_LIBC_FUNCTIONS(REAL_LIBC_LOOKUP)
#undef REAL_LIBC_LOOKUP
    atomic_store_explicit(&resolved, 1, memory_order_release);
}

const struct real_libc *real_libc(void)
{
    if (__builtin_expect(!atomic_load_explicit(&resolved, memory_order_acquire), 0))
        real_libc_resolve();
    return &table;
}
