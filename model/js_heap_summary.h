/*
 * js_heap_summary.h - DevTools' Summary view of a heap snapshot: one row
 * per constructor group with its object count, shallow bytes and retained
 * bytes, the groups that hold the most first.
 *
 * Never: writes output.
 */
#ifndef STOKE_JS_HEAP_SUMMARY_H
#define STOKE_JS_HEAP_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include "js_heap_analysis.h"

/* The classes that have objects, by retained bytes (then shallow bytes,
 * then name); returns how many and sets *order to their indices in
 * a->classes (free it). */
size_t stoke_js_heap_by_constructor(const struct stoke_js_heap_analysis *a, uint32_t **order);

#endif
