/*
 * js_heap_read.h - reads a V8 heap snapshot file (.heapsnapshot) into the
 * graph of model/js_heap_snapshot.h.
 *
 * Never: analyses the graph.
 */
#ifndef STOKE_JS_HEAP_READ_H
#define STOKE_JS_HEAP_READ_H

#include <stddef.h>
#include "js_heap_snapshot.h"

/* Reads the snapshot at path. Returns it, or NULL with a one-line message
 * in err naming the file and what is wrong. A file that ends after its
 * nodes gives a partial snapshot (truncated set) and a warning on stderr;
 * one that ends earlier is an error. Other damage that leaves a usable
 * graph (counts in meta that disagree with the arrays, edges to no node)
 * is warned about and repaired. Memory grows with what the file holds,
 * never with the counts it claims. */
struct stoke_js_heap *stoke_js_heap_read(const char *path, char *err, size_t errlen);

/* 1 when path is a regular file that starts like a heap snapshot
 * ({"snapshot": after optional blanks). */
int stoke_is_js_heap_file(const char *path);

#endif
