/*
 * js_heap_class_table.c - the class table; see js_heap_class_table.h.
 *
 * Owns: what makes two classes the same (equal names, and equal locations
 * or none on both).
 * Never: holds a pointer into a snapshot (names are copied), so a table
 * outlives the snapshot it was made from.
 */
#include "js_heap_class_table.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "hash.h"

static uint64_t key_hash(const char *name, const struct stoke_js_location *where)
{
    uint64_t h = stoke_hash_bytes(name, strlen(name));
    if (!where)
        return h;
    h = stoke_hash_mix(h, where->script_id);
    return stoke_hash_mix(h, ((uint64_t)where->line << 32) | where->column);
}

static int same_key(const struct stoke_js_class *c, const char *name,
                    const struct stoke_js_location *where)
{
    if (strcmp(c->name, name) != 0 || c->located != (where != NULL))
        return 0;
    return !where || (c->where.script_id == where->script_id && c->where.line == where->line &&
                      c->where.column == where->column);
}

static int64_t find(const struct js_class_table *t, const char *name,
                    const struct stoke_js_location *where, uint64_t hash)
{
    size_t pos = SIZE_MAX;
    int64_t i;
    while ((i = stoke_index_table_next(&t->index, hash, &pos)) >= 0)
        if (same_key(&t->classes[i], name, where))
            return i;
    return -1;
}

int64_t js_class_table_find(const struct js_class_table *t, const char *name,
                            const struct stoke_js_location *where)
{
    return find(t, name, where, key_hash(name, where));
}

uint32_t js_class_table_add(struct js_class_table *t, const char *name,
                            const struct stoke_js_location *where)
{
    uint64_t hash = key_hash(name, where);
    int64_t found = find(t, name, where, hash);
    if (found >= 0)
        return (uint32_t)found;
    t->classes = stoke_grow(t->classes, &t->cap, t->nclasses + 1, sizeof *t->classes);
    struct stoke_js_class *c = &t->classes[t->nclasses];
    memset(c, 0, sizeof *c);
    c->name = stoke_arena_strndup(&t->names, name, strlen(name));
    c->located = where != NULL;
    if (where)
        c->where = *where;
    stoke_index_table_add(&t->index, hash, (uint32_t)t->nclasses);
    return (uint32_t)t->nclasses++;
}

void js_class_table_free(struct js_class_table *t)
{
    free(t->classes);
    stoke_index_table_free(&t->index);
    stoke_arena_free(&t->names);
}
