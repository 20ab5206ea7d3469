/*
 * js_heap_dominators.h - the dominator tree of a snapshot's objects and
 * their retained sizes, as DevTools computes them: an object's retained
 * size is what the heap would lose if it went, its shallow size and that
 * of every object it dominates (every path from the root to them passes
 * through it).
 *
 * Never: changes the snapshot.
 */
#ifndef STOKE_JS_HEAP_DOMINATORS_H
#define STOKE_JS_HEAP_DOMINATORS_H

#include <stdint.h>
#include "js_heap_snapshot.h"

struct js_heap_dominators {
    uint32_t *dominator;      /* per node: its immediate dominator; the root's is itself */
    uint64_t *retained;       /* per node: bytes */
    uint32_t *children_start; /* node i dominates children[children_start[i] ..
                               * children_start[i+1]-1] (node_count+1 entries) */
    uint32_t *children;
    uint64_t unreachable;     /* nodes the root reaches by no path DevTools follows:
                               * the root is their dominator */
};

/* Computes the tree from the edges that retain (not weak, not a shortcut
 * but at the root, not from outside the objects the root's shortcuts reach
 * into them, not a WeakMap's own edge to a value its key holds) and the
 * retained sizes from shallow (by node). */
void js_heap_dominators(const struct stoke_js_heap *h, const uint64_t *shallow,
                        struct js_heap_dominators *out);

void js_heap_dominators_free(struct js_heap_dominators *d);

#endif
