/*
 * js_heap_detached.h - the native objects of a snapshot that DevTools
 * shows as "Detached <name>": marked detached by V8, or held by one that
 * is and not by an attached one.
 *
 * Never: changes the snapshot.
 */
#ifndef STOKE_JS_HEAP_DETACHED_H
#define STOKE_JS_HEAP_DETACHED_H

#include <stdint.h>
#include "js_heap_snapshot.h"

/* Returns a byte per node, 1 for a detached native object (free it), or
 * NULL when the snapshot marks none (it has no detachedness field or no
 * native type). */
uint8_t *js_heap_detached_nodes(const struct stoke_js_heap *h);

#endif
