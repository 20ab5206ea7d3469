/*
 * js_heap_summary.c - the Summary's rows; see js_heap_summary.h.
 *
 * Owns: which classes are rows and their order.
 * Never: changes the analysis.
 */
#define _GNU_SOURCE /* qsort_r */
#include "js_heap_summary.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"

static int by_size(const void *x, const void *y, void *classes)
{
    const struct stoke_js_class *a = (const struct stoke_js_class *)classes + *(const uint32_t *)x;
    const struct stoke_js_class *b = (const struct stoke_js_class *)classes + *(const uint32_t *)y;
    if (a->retained_bytes != b->retained_bytes)
        return a->retained_bytes > b->retained_bytes ? -1 : 1;
    if (a->shallow_bytes != b->shallow_bytes)
        return a->shallow_bytes > b->shallow_bytes ? -1 : 1;
    return strcmp(a->name, b->name);
}

size_t stoke_js_heap_by_constructor(const struct stoke_js_heap_analysis *a, uint32_t **order)
{
    size_t n = 0;
    *order = stoke_xmalloc((a->nclasses ? a->nclasses : 1) * sizeof **order);
    for (size_t i = 0; i < a->nclasses; i++)
        if (a->classes[i].count)
            (*order)[n++] = (uint32_t)i;
    qsort_r(*order, n, sizeof **order, by_size, a->classes);
    return n;
}
