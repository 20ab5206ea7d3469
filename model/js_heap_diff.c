/*
 * js_heap_diff.c - the comparison of two heap snapshots; see js_heap_diff.h.
 *
 * Owns: the census of a snapshot (its groups' totals and their objects'
 * ids and sizes, sorted by id), matching groups and objects across two
 * snapshots, the bytes new objects hold, and the order of the changes.
 * Never: keeps a pointer into a snapshot or an analysis, or reads a file.
 */
#include "js_heap_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "js_heap_class_table.h"
#include "js_heap_interfaces.h"
#include "js_heap_profile.h"

enum { BEFORE = 0, AFTER = 1 };

struct object {
    uint32_t id;
    uint64_t size;
};

struct stoke_js_census {
    struct js_class_table table; /* the groups, with their totals */
    uint32_t *object_start;      /* group c's objects are objects[object_start[c] ..
                                  * object_start[c+1]-1], by id */
    struct object *objects;
};

/* --- census ------------------------------------------------------------------ */

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const struct object *)a)->id, y = ((const struct object *)b)->id;
    return x < y ? -1 : x > y;
}

static void copy_classes(struct stoke_js_census *c, const struct stoke_js_heap_analysis *a)
{
    for (size_t i = 0; i < a->nclasses; i++) {
        const struct stoke_js_class *k = &a->classes[i];
        uint32_t id = js_class_table_add(&c->table, k->name, k->located ? &k->where : NULL);
        const char *name = c->table.classes[id].name;
        c->table.classes[id] = *k;
        c->table.classes[id].name = name;
    }
}

/* The counted objects of each group, by id. */
static void group_objects(struct stoke_js_census *c, const struct stoke_js_heap_analysis *a)
{
    size_t n = a->nclasses;
    c->object_start = stoke_xcalloc(n + 2, sizeof *c->object_start);
    for (uint32_t node = 0; node < a->heap->node_count; node++)
        if (a->shallow[node])
            c->object_start[a->class_of[node] + 2]++;
    for (size_t i = 2; i <= n + 1; i++)
        c->object_start[i] += c->object_start[i - 1];
    c->objects = stoke_xmalloc((a->objects ? a->objects : 1) * sizeof *c->objects);
    for (uint32_t node = 0; node < a->heap->node_count; node++)
        if (a->shallow[node])
            c->objects[c->object_start[a->class_of[node] + 1]++] =
                (struct object){a->heap->node_id[node], a->shallow[node]};
    for (size_t i = 0; i < n; i++)
        qsort(c->objects + c->object_start[i], c->object_start[i + 1] - c->object_start[i],
              sizeof *c->objects, by_id);
}

struct stoke_js_census *stoke_js_census_of(const struct stoke_js_heap_analysis *a)
{
    struct stoke_js_census *c = stoke_xcalloc(1, sizeof *c);
    copy_classes(c, a);
    group_objects(c, a);
    return c;
}

void stoke_js_census_free(struct stoke_js_census *c)
{
    if (!c)
        return;
    js_class_table_free(&c->table);
    free(c->object_start);
    free(c->objects);
    free(c);
}

/* --- the changes ----------------------------------------------------------------- */

static const struct stoke_js_location *where_of(const struct stoke_js_class *k)
{
    return k->located ? &k->where : NULL;
}

/* Adds the groups of c that have objects to all. */
static void add_groups(struct js_class_table *all, const struct stoke_js_census *c)
{
    for (size_t i = 0; i < c->table.nclasses; i++) {
        const struct stoke_js_class *k = &c->table.classes[i];
        if (k->count)
            js_class_table_add(all, k->name, where_of(k));
    }
}

/* The objects of group name/where in census c (none when it lacks it). */
static const struct object *objects_of(const struct stoke_js_census *c,
                                       const struct stoke_js_class *key, size_t *n,
                                       const struct stoke_js_class **found)
{
    int64_t i = js_class_table_find(&c->table, key->name, where_of(key));
    *found = i < 0 ? NULL : &c->table.classes[i];
    *n = i < 0 ? 0 : c->object_start[i + 1] - c->object_start[i];
    return i < 0 ? NULL : c->objects + c->object_start[i];
}

static void set_side(struct stoke_js_class_change *change, const struct stoke_js_class *k,
                     int side)
{
    if (!k)
        return;
    change->count[side] = k->count;
    change->shallow_bytes[side] = k->shallow_bytes;
    change->retained_bytes[side] = k->retained_bytes;
}

/* New and deleted objects: those whose id only one side has. */
static void match_objects(struct stoke_js_class_change *change, const struct object *before,
                          size_t nbefore, const struct object *after, size_t nafter)
{
    size_t i = 0, j = 0;
    while (i < nbefore || j < nafter) {
        if (j == nafter || (i < nbefore && before[i].id < after[j].id)) {
            change->deleted_count++;
            change->deleted_bytes += before[i++].size;
        } else if (i == nbefore || after[j].id < before[i].id) {
            change->new_count++;
            change->new_bytes += after[j++].size;
        } else {
            i++;
            j++;
        }
    }
}

static int64_t delta(const uint64_t *sides)
{
    return (int64_t)sides[AFTER] - (int64_t)sides[BEFORE];
}

static int by_growth(const void *x, const void *y)
{
    const struct stoke_js_class_change *a = x, *b = y;
    if (a->held_by_new != b->held_by_new)
        return a->held_by_new > b->held_by_new ? -1 : 1;
    int64_t da = delta(a->shallow_bytes), db = delta(b->shallow_bytes);
    if (da != db)
        return da > db ? -1 : 1;
    da = delta(a->count);
    db = delta(b->count);
    if (da != db)
        return da > db ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The changes of every group, in the order of the groups in d->impl. */
static struct stoke_js_heap_diff *changes_of(const struct stoke_js_census *before,
                                            const struct stoke_js_census *after)
{
    struct stoke_js_heap_diff *d = stoke_xcalloc(1, sizeof *d);
    struct js_class_table *all = stoke_xcalloc(1, sizeof *all);
    d->impl = all;
    add_groups(all, after);
    add_groups(all, before);
    d->nclasses = all->nclasses;
    d->classes = stoke_xcalloc(d->nclasses ? d->nclasses : 1, sizeof *d->classes);
    for (size_t i = 0; i < d->nclasses; i++) {
        struct stoke_js_class_change *change = &d->classes[i];
        const struct stoke_js_class *key = &all->classes[i], *b, *a;
        size_t nb, na;
        const struct object *ob = objects_of(before, key, &nb, &b);
        const struct object *oa = objects_of(after, key, &na, &a);
        change->name = key->name;
        change->located = key->located;
        change->where = key->where;
        set_side(change, b, BEFORE);
        set_side(change, a, AFTER);
        match_objects(change, ob, nb, oa, na);
    }
    return d;
}

static void sort_changes(struct stoke_js_heap_diff *d)
{
    qsort(d->classes, d->nclasses, sizeof *d->classes, by_growth);
}

struct stoke_js_heap_diff *stoke_js_heap_diff(const struct stoke_js_census *before,
                                              const struct stoke_js_census *after)
{
    struct stoke_js_heap_diff *d = changes_of(before, after);
    sort_changes(d);
    return d;
}

void stoke_js_heap_diff_free(struct stoke_js_heap_diff *d)
{
    if (!d)
        return;
    js_class_table_free(d->impl);
    free(d->impl);
    free(d->classes);
    free(d);
}

/* --- what new objects hold ------------------------------------------------------- */

/* Of the later snapshot, what finding the new objects' holdings needs once
 * its graph is gone: per node its id, whether it is counted, its group
 * (index into the census's table), dominator and retained bytes. */
struct later_tree {
    size_t n;
    uint32_t *id, *class_of, *dominator;
    uint64_t *retained;
    uint8_t *counted;
};

static void keep_tree(struct later_tree *t, const struct stoke_js_heap_analysis *a,
                      const struct stoke_js_census *c)
{
    uint32_t *census_class = stoke_xmalloc((a->nclasses ? a->nclasses : 1) * sizeof *census_class);
    for (size_t k = 0; k < a->nclasses; k++)
        census_class[k] = (uint32_t)js_class_table_find(&c->table, a->classes[k].name,
                                                        where_of(&a->classes[k]));
    size_t n = t->n = a->heap->node_count;
    t->id = stoke_xmalloc((n ? n : 1) * sizeof *t->id);
    t->class_of = stoke_xmalloc((n ? n : 1) * sizeof *t->class_of);
    t->dominator = stoke_xmalloc((n ? n : 1) * sizeof *t->dominator);
    t->retained = stoke_xmalloc((n ? n : 1) * sizeof *t->retained);
    t->counted = stoke_xmalloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        t->id[i] = a->heap->node_id[i];
        t->class_of[i] = census_class[a->class_of[i]];
        t->dominator[i] = a->tree.dominator[i];
        t->retained[i] = a->tree.retained[i];
        t->counted[i] = a->shallow[i] != 0;
    }
    free(census_class);
}

static void free_tree(struct later_tree *t)
{
    free(t->id);
    free(t->class_of);
    free(t->dominator);
    free(t->retained);
    free(t->counted);
}

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every counted object id of c, sorted; *n of them. */
static uint32_t *ids_of(const struct stoke_js_census *c, size_t *n)
{
    *n = c->object_start[c->table.nclasses];
    uint32_t *ids = stoke_xmalloc((*n ? *n : 1) * sizeof *ids);
    for (size_t i = 0; i < *n; i++)
        ids[i] = c->objects[i].id;
    qsort(ids, *n, sizeof *ids, by_value);
    return ids;
}

enum { UNSEEN = 0, NEW_ABOVE, NO_NEW_ABOVE };

/* 1 when a node strictly above node in the dominator tree is new. Walks up
 * to the first node already known and marks the path (no recursion: a
 * chain may be millions long). */
static int new_above(const struct later_tree *t, const uint8_t *is_new, uint8_t *above,
                     uint32_t node)
{
    uint32_t top = node;
    while (above[top] == UNSEEN && t->dominator[top] != top && !is_new[t->dominator[top]])
        top = t->dominator[top];
    uint8_t state = above[top] != UNSEEN      ? above[top]
                    : t->dominator[top] == top ? NO_NEW_ABOVE
                                               : NEW_ABOVE;
    for (uint32_t at = node; above[at] == UNSEEN; at = t->dominator[at]) {
        above[at] = state;
        if (at == top)
            break;
    }
    return state == NEW_ABOVE;
}

/* Adds to each group's held_by_new the retained bytes of its new objects
 * that no new object dominates. d's classes are still in d->impl's order. */
static void add_new_holdings(struct stoke_js_heap_diff *d, const struct later_tree *t,
                             const struct stoke_js_census *before,
                             const struct stoke_js_census *after)
{
    size_t nold;
    uint32_t *old = ids_of(before, &nold);
    uint8_t *is_new = stoke_xcalloc(t->n ? t->n : 1, 1);
    uint8_t *above = stoke_xcalloc(t->n ? t->n : 1, 1);
    for (size_t i = 0; i < t->n; i++)
        is_new[i] = t->counted[i] && !bsearch(&t->id[i], old, nold, sizeof *old, by_value);
    for (uint32_t i = 0; i < t->n; i++) {
        if (!is_new[i] || new_above(t, is_new, above, i))
            continue;
        const struct stoke_js_class *k = &after->table.classes[t->class_of[i]];
        int64_t change = js_class_table_find(d->impl, k->name, where_of(k));
        if (change >= 0)
            d->classes[change].held_by_new += t->retained[i];
    }
    free(old);
    free(is_new);
    free(above);
}

/* --- a comparison, one snapshot at a time ------------------------------------------- */

struct stoke_js_comparison {
    struct stoke_js_interfaces *interfaces; /* the later snapshot's */
    struct stoke_js_census *after;
    struct later_tree tree;                 /* the later snapshot's dominator tree */
};

/* Analyses h, adds it to profile and returns its census; tree (NULL: not
 * wanted) keeps its dominator tree. */
static struct stoke_js_census *take_census(const struct stoke_js_heap *h,
                                           const struct stoke_js_interfaces *interfaces,
                                           struct stoke_profile *profile,
                                           struct later_tree *tree)
{
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, interfaces);
    stoke_js_heap_add_to_profile(profile, a);
    struct stoke_js_census *c = stoke_js_census_of(a);
    if (tree)
        keep_tree(tree, a, c);
    stoke_js_heap_analysis_free(a);
    return c;
}

struct stoke_js_comparison *stoke_js_comparison_after(const struct stoke_js_heap *after,
                                                      struct stoke_profile *profile)
{
    struct stoke_js_comparison *c = stoke_xcalloc(1, sizeof *c);
    c->interfaces = stoke_js_interfaces_infer(after);
    c->after = take_census(after, c->interfaces, profile, &c->tree);
    return c;
}

struct stoke_js_heap_diff *stoke_js_comparison_before(struct stoke_js_comparison *c,
                                                      const struct stoke_js_heap *before,
                                                      struct stoke_profile *profile)
{
    struct stoke_js_census *census = take_census(before, c->interfaces, profile, NULL);
    struct stoke_js_heap_diff *d = changes_of(census, c->after);
    add_new_holdings(d, &c->tree, census, c->after);
    sort_changes(d);
    stoke_js_census_free(census);
    stoke_js_comparison_free(c);
    return d;
}

void stoke_js_comparison_free(struct stoke_js_comparison *c)
{
    free_tree(&c->tree);
    stoke_js_interfaces_free(c->interfaces);
    stoke_js_census_free(c->after);
    free(c);
}
