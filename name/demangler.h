/*
 * demangler.h - turns linkage names into the names users wrote: C++
 * (Itanium ABI) and Rust (legacy, without its hash suffix, and v0).
 *
 * Never: changes a name that is not mangled (C names pass through).
 */
#ifndef STOKE_DEMANGLER_H
#define STOKE_DEMANGLER_H

/* Returns a malloc'ed demangled name, or NULL when name is not mangled (then
 * use name as it is). */
char *stoke_demangle(const char *name);

#endif
