/*
 * demangler.c - name demangling through libiberty (the demangler of the GNU
 * toolchain); see demangler.h.
 *
 * Owns: the demangler options (parameters shown, ANSI qualifiers, Rust
 * legacy hashes dropped: libiberty drops them unless DMGL_VERBOSE is set).
 * Never: writes its own demangler.
 */
#include "demangler.h"

#include <stddef.h>

#include <demangle.h>

char *stoke_demangle(const char *name)
{
    if (!name || name[0] != '_')
        return NULL; /* mangled names start with _Z (C++, Rust legacy) or _R (Rust v0) */
    return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}
