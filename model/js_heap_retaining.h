/*
 * js_heap_retaining.h - which edges of a snapshot keep their target alive,
 * for the dominator tree, by DevTools' rules.
 *
 * Never: changes the snapshot.
 */
#ifndef STOKE_JS_HEAP_RETAINING_H
#define STOKE_JS_HEAP_RETAINING_H

#include <stdint.h>
#include "js_heap_snapshot.h"

/* Returns a byte per edge (free it), 1 for an edge that retains: not weak,
 * not to its own node, not a shortcut (but from the root, where shortcuts
 * mark the user's global objects), not from outside what those globals
 * reach to inside it (so the debugger's and V8's own references do not
 * become dominators of the program's objects), and not a WeakMap table's
 * edge to a value (the edge from the value's key is kept). */
uint8_t *js_heap_retaining_edges(const struct stoke_js_heap *h);

#endif
