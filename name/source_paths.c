/*
 * source_paths.c - source paths made whole; see source_paths.h.
 *
 * Owns: joining, lexical cleaning, and interning the paths it made.
 */
#define _GNU_SOURCE /* strchrnul */
#include "source_paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hash.h"

/* Takes "." segments, ".." with the segment before it, and repeated
 * slashes out of the absolute path p, in place ("/.." stays "/"). */
static void clean(char *p)
{
    char *out = p; /* p[0] is '/' */
    for (const char *in = p; *in;) {
        while (*in == '/')
            in++;
        const char *end = strchrnul(in, '/');
        size_t len = (size_t)(end - in);
        if (len == 1 && in[0] == '.') {
            /* nothing */
        } else if (len == 2 && in[0] == '.' && in[1] == '.') {
            while (out > p && *--out != '/')
                ;
        } else if (len) {
            *out++ = '/';
            memmove(out, in, len);
            out += len;
        }
        in = end;
    }
    if (out == p)
        *out++ = '/';
    *out = '\0';
}

/* Whether an absolute path holds anything clean would change. */
static int needs_cleaning(const char *p)
{
    return strstr(p, "/./") || strstr(p, "/../") || strstr(p, "//") ||
           (strlen(p) >= 2 && strcmp(p + strlen(p) - 2, "/.") == 0) ||
           (strlen(p) >= 3 && strcmp(p + strlen(p) - 3, "/..") == 0);
}

static const char *intern(struct stoke_source_paths *t, const char *path)
{
    size_t len = strlen(path);
    uint64_t hash = stoke_hash_bytes(path, len);
    size_t pos = SIZE_MAX;
    int64_t i;
    while ((i = stoke_index_table_next(&t->index, hash, &pos)) >= 0)
        if (strcmp(t->paths[i], path) == 0)
            return t->paths[i];
    t->paths = stoke_grow(t->paths, &t->cap, t->n + 1, sizeof *t->paths);
    t->paths[t->n] = stoke_arena_strndup(&t->arena, path, len);
    stoke_index_table_add(&t->index, hash, (uint32_t)t->n);
    return t->paths[t->n++];
}

const char *stoke_source_path(struct stoke_source_paths *t, const char *dir, const char *file)
{
    char whole[PATH_MAX];
    if (!file)
        return "";
    int joins = *file && *file != '/' && dir && *dir == '/';
    if (!joins && (*file != '/' || !needs_cleaning(file)))
        return file;
    int len = joins ? snprintf(whole, sizeof whole, "%s/%s", dir, file)
                    : snprintf(whole, sizeof whole, "%s", file);
    if (len < 0 || (size_t)len >= sizeof whole)
        return file;
    clean(whole);
    return intern(t, whole);
}

void stoke_source_paths_free(struct stoke_source_paths *t)
{
    stoke_arena_free(&t->arena);
    free(t->paths);
    stoke_index_table_free(&t->index);
}
