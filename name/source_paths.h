/*
 * source_paths.h - the source paths debug information names, as paths
 * from the root: DWARF names a source as the compiler was given it (often
 * relative to the unit's compilation directory, often with "." and ".."
 * in it); the report reads sources and pprof finds them by these paths.
 * Made paths are interned for the life of the table.
 *
 * Never: touches the file system (the cleaning is lexical, as a compiler
 * would have joined the names).
 */
#ifndef STOKE_SOURCE_PATHS_H
#define STOKE_SOURCE_PATHS_H

#include <stddef.h>
#include "arena.h"
#include "index_table.h"

struct stoke_source_paths {
    struct stoke_arena arena;
    const char **paths;
    size_t n, cap;
    struct stoke_index_table index;
};

/* file joined to dir when it is relative and dir absolute, its "." and
 * ".." segments and repeated slashes taken out; file itself when nothing
 * changes or the result would not fit PATH_MAX; "" for NULL. */
const char *stoke_source_path(struct stoke_source_paths *t, const char *dir, const char *file);

void stoke_source_paths_free(struct stoke_source_paths *t);

#endif
