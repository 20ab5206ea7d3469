/*
 * foreign_allocator.c - see foreign_allocator.h. Asks the dynamic linker
 * which malloc a lookup from the program finds, and in which file it is.
 */
#define _GNU_SOURCE
#include "foreign_allocator.h"

#include <dlfcn.h>
#include <stdio.h>

static char note[512];

const char *foreign_allocator_note(void)
{
    Dl_info found, agent;
    void *malloc_found = dlsym(RTLD_DEFAULT, "malloc");
    if (!malloc_found || !dladdr(malloc_found, &found) ||
        !dladdr((void *)foreign_allocator_note, &agent) || found.dli_fbase == agent.dli_fbase)
        return NULL;
    snprintf(note, sizeof note,
             "the program uses its own malloc (from %s), which comes before stoke's in the "
             "lookup order: no allocation reaches stoke's heap hooks, so heap snapshots stay "
             "empty",
             found.dli_fname && *found.dli_fname ? found.dli_fname : "the executable");
    return note;
}
