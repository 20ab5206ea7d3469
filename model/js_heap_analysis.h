/*
 * js_heap_analysis.h - what DevTools computes from a heap snapshot before
 * it shows anything: every object's shallow size (arrays and hidden
 * objects owned by one object counted in it), its dominator and retained
 * size, and its constructor group (class) with the group's count, shallow
 * and retained bytes. The Summary view (js_heap_summary.h), the profile
 * (js_heap_profile.h) and the comparison (js_heap_diff.h) are made from it.
 *
 * Never: reads files or writes output.
 */
#ifndef STOKE_JS_HEAP_ANALYSIS_H
#define STOKE_JS_HEAP_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include "js_heap_class_table.h"
#include "js_heap_dominators.h"
#include "js_heap_interfaces.h"
#include "js_heap_snapshot.h"

struct stoke_js_heap_analysis {
    const struct stoke_js_heap *heap;
    uint64_t *shallow;              /* per node: bytes, as DevTools shows them */
    struct js_heap_dominators tree; /* per node: dominator, retained bytes;
                                     * the dominated children of each node */
    uint32_t *class_of;             /* per node: index into classes */
    struct stoke_js_class *classes; /* in the order first met */
    size_t nclasses;
    uint64_t objects;               /* objects counted in classes */
    uint64_t total_bytes;           /* the root's retained size: every shallow size */
    struct js_class_table table;
};

/* Analyses h, which must outlive the analysis. Plain objects are named
 * after interfaces (NULL: the ones h's own plain objects suggest). */
struct stoke_js_heap_analysis *stoke_js_heap_analyze(const struct stoke_js_heap *h,
                                                     const struct stoke_js_interfaces *interfaces);

void stoke_js_heap_analysis_free(struct stoke_js_heap_analysis *a);

#endif
