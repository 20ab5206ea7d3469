/*
 * symtab.h - the function symbols of one module, sorted by address, so
 * naming an address is a binary search instead of a scan of the whole
 * symbol table (libdwfl's own lookup scans; a big program has 100k symbols
 * and a report resolves thousands of addresses).
 *
 * Never: reads ELF by hand (symbols come from libdwfl), or outlives the
 * Dwfl session its names point into.
 */
#ifndef STOKE_SYMTAB_H
#define STOKE_SYMTAB_H

#include <elfutils/libdwfl.h>
#include <stdint.h>

struct stoke_symtab;

/* Indexes the function symbols libdwfl found for module (symtab, dynsym or
 * the auxiliary symtab). Never NULL; may be empty. */
struct stoke_symtab *stoke_symtab_build(Dwfl_Module *module);

/* The name of the function containing addr (module address), or NULL. */
const char *stoke_symtab_lookup(const struct stoke_symtab *t, uint64_t addr);

void stoke_symtab_free(struct stoke_symtab *t);

#endif
