/*
 * foreign_allocator.c - see foreign_allocator.h. Asks the dynamic linker
 * which malloc a lookup from the program finds, and in which file it is.
 */
#define _GNU_SOURCE
#include "foreign_allocator.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>

static char note[512];
static int asked;

/* A non-PIE executable that takes malloc's address (node does) makes its
 * own PLT entry malloc's canonical address: the symbol there is undefined
 * in it, and calls still go to the agent's. */
static int defined_there(void *address, Dl_info *found)
{
    const ElfW(Sym) *symbol = NULL;
    if (!dladdr1(address, found, (void **)&symbol, RTLD_DL_SYMENT))
        return 0;
    return !symbol || symbol->st_shndx != SHN_UNDEF;
}

const char *foreign_allocator_note(void)
{
    if (asked)
        return note[0] ? note : NULL;
    asked = 1;
    Dl_info found, agent;
    void *malloc_found = dlsym(RTLD_DEFAULT, "malloc");
    if (!malloc_found || !defined_there(malloc_found, &found) ||
        !dladdr((void *)foreign_allocator_note, &agent) || found.dli_fbase == agent.dli_fbase)
        return NULL;
    snprintf(note, sizeof note,
             "the program uses its own malloc (from %s), which comes before stoke's in the "
             "lookup order: no allocation reaches stoke's heap hooks, so heap snapshots stay "
             "empty",
             found.dli_fname && *found.dli_fname ? found.dli_fname : "the executable");
    return note;
}
