/*
 * js_heap_shallow.h - the shallow size of each object as DevTools shows it:
 * V8's internal arrays and hidden objects (an object's elements, its
 * property backing store) and the data of external strings, owned by
 * exactly one object, count in that object's size, not on their own.
 *
 * Never: changes the snapshot.
 */
#ifndef STOKE_JS_HEAP_SHALLOW_H
#define STOKE_JS_HEAP_SHALLOW_H

#include <stdint.h>
#include "js_heap_snapshot.h"

/* Returns the shallow sizes by node (free it): the snapshot's self sizes,
 * with each owned object's size moved to its one owner. A snapshot whose
 * root holds no user object (taken with V8's internals exposed) keeps its
 * self sizes as they are. detached (by node, NULL none) marks the native
 * objects DevTools calls "Detached ...". */
uint64_t *js_heap_shallow_sizes(const struct stoke_js_heap *h, const uint8_t *detached);

#endif
