/*
 * js_heap_analysis.c - runs the analysis of a snapshot and totals its
 * classes; see js_heap_analysis.h.
 *
 * A class's retained bytes follow DevTools: walking the dominator tree
 * from the root, an object of nonzero shallow size adds its retained size
 * to its class unless an object of the same class dominates it (whose
 * retained size holds it already): a linked list of Item counts once, at
 * its head.
 *
 * Owns: the order of the steps and the class totals.
 * Never: recurses over the tree (a chain of a million objects is a
 * million deep).
 */
#include "js_heap_analysis.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "js_heap_classes.h"
#include "js_heap_detached.h"
#include "js_heap_shallow.h"

static void count_objects(struct stoke_js_heap_analysis *a)
{
    for (uint32_t node = 0; node < a->heap->node_count; node++) {
        if (!a->shallow[node])
            continue;
        struct stoke_js_class *c = &a->classes[a->class_of[node]];
        c->count++;
        c->shallow_bytes += a->shallow[node];
        a->objects++;
    }
}

/* A walk of the dominator tree: a node is entered, then its children are
 * walked, then it is left (only nodes that opened their class are). */
struct walk {
    uint32_t *node;
    uint8_t *leaving;
    size_t n, cap;
};

static void walk_push(struct walk *w, uint32_t node, uint8_t leaving)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 1024;
        w->node = stoke_xrealloc(w->node, w->cap * sizeof *w->node);
        w->leaving = stoke_xrealloc(w->leaving, w->cap);
    }
    w->node[w->n] = node;
    w->leaving[w->n++] = leaving;
}

static void enter(struct stoke_js_heap_analysis *a, struct walk *w, uint32_t *open,
                  uint32_t node)
{
    const struct js_heap_dominators *t = &a->tree;
    uint32_t c = a->class_of[node];
    uint32_t first = t->children_start[node], end = t->children_start[node + 1];
    if (a->shallow[node] && !open[c]) {
        a->classes[c].retained_bytes += t->retained[node];
        if (first != end) {
            open[c]++;
            walk_push(w, node, 1);
        }
    }
    for (uint32_t i = first; i < end; i++)
        walk_push(w, t->children[i], 0);
}

static void retained_by_class(struct stoke_js_heap_analysis *a)
{
    uint32_t *open = stoke_xcalloc(a->nclasses ? a->nclasses : 1, sizeof *open);
    struct walk w = {0};
    walk_push(&w, a->heap->root, 0);
    while (w.n) {
        uint32_t node = w.node[--w.n];
        if (w.leaving[w.n])
            open[a->class_of[node]]--;
        else
            enter(a, &w, open, node);
    }
    free(open);
    free(w.node);
    free(w.leaving);
}

struct stoke_js_heap_analysis *stoke_js_heap_analyze(const struct stoke_js_heap *h,
                                                     const struct stoke_js_interfaces *interfaces)
{
    struct stoke_js_heap_analysis *a = stoke_xcalloc(1, sizeof *a);
    a->heap = h;
    uint8_t *detached = js_heap_detached_nodes(h);
    a->shallow = js_heap_shallow_sizes(h, detached);
    js_heap_dominators(h, a->shallow, &a->tree);
    struct stoke_js_interfaces *own = interfaces ? NULL : stoke_js_interfaces_infer(h);
    a->class_of = js_heap_classes(h, interfaces ? interfaces : own, detached, &a->table);
    stoke_js_interfaces_free(own);
    free(detached);
    a->classes = a->table.classes;
    a->nclasses = a->table.nclasses;
    a->total_bytes = a->tree.retained[h->root];
    count_objects(a);
    retained_by_class(a);
    return a;
}

void stoke_js_heap_analysis_free(struct stoke_js_heap_analysis *a)
{
    if (!a)
        return;
    free(a->shallow);
    js_heap_dominators_free(&a->tree);
    free(a->class_of);
    js_class_table_free(&a->table);
    free(a);
}
