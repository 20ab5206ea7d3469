/*
 * js_heap_class_table.h - the constructor groups ("classes") of heap
 * snapshots, found by their key: the name DevTools shows and, for objects
 * of a constructor written in JavaScript, where that constructor is (two
 * classes called Item in two files are two groups, as in DevTools).
 *
 * Never: decides which class a node belongs to (js_heap_classes.c does).
 */
#ifndef STOKE_JS_HEAP_CLASS_TABLE_H
#define STOKE_JS_HEAP_CLASS_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "index_table.h"
#include "js_heap_snapshot.h"

/* One constructor group of a snapshot and what DevTools' Summary shows of
 * it. Objects of zero shallow size are not counted (nor shown by DevTools). */
struct stoke_js_class {
    const char *name;
    int located;                     /* where holds the constructor's position */
    struct stoke_js_location where;
    uint64_t count;                  /* objects */
    uint64_t shallow_bytes;          /* their shallow sizes added up */
    uint64_t retained_bytes;         /* retained sizes of those of its objects
                                      * that no other object of it dominates */
};

struct js_class_table {
    struct stoke_js_class *classes;
    size_t nclasses, cap;
    struct stoke_index_table index;
    struct stoke_arena names;
};

/* The id of the class (name, where; where NULL for none), added with zero
 * counts when new (name is copied). */
uint32_t js_class_table_add(struct js_class_table *t, const char *name,
                            const struct stoke_js_location *where);

/* The id of that class, or -1 when the table has none. */
int64_t js_class_table_find(const struct js_class_table *t, const char *name,
                            const struct stoke_js_location *where);

void js_class_table_free(struct js_class_table *t);

#endif
