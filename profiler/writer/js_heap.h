/*
 * js_heap.h - the JavaScript half of a heap snapshot, in node.
 *
 * V8 allocates the JavaScript heap itself, not through malloc: a native
 * snapshot of node misses most of its memory. With --heap, stoke record
 * asks node for V8 heap snapshots on STOKE_JS_HEAP_SIGNAL
 * (STOKE_NODE_HEAP_FLAG in NODE_OPTIONS). Each snapshot taken on request
 * (the dump signal, stoke_heap_dump()) then sends node that signal too:
 * node writes Heap.<date>.<time>.<pid>.<tid>.<n>.heapsnapshot in its working
 * directory, on its main thread, once the JavaScript lets it. The writer
 * waits for the file to be whole, moves it next to the native snapshot
 * under the same name ending .heapsnapshot, and notes in the trace when it
 * asked and how long node took (a JS_HEAP record). Exit snapshots have no
 * JavaScript half: node's heap is torn down by then.
 */
#ifndef STOKE_AGENT_JS_HEAP_H
#define STOKE_AGENT_JS_HEAP_H

#include <stdint.h>

#include "records.h"

/* Decides whether this process takes JavaScript heap snapshots: node, with
 * the flag in its NODE_OPTIONS, and heap tracking on. At the start, while
 * the process has one thread.
 * Context: program. */
void js_heap_init(int heap_tracking);

/* The signal node writes a V8 heap snapshot on, 0 when off.
 * Context: any. */
int js_heap_signal(void);

/* A native snapshot was written to native_path (<comm>.<pid>.heap.<seq>.
 * <time>.stoke): asks node for its JavaScript half, unless one is being
 * written. now_us: since the process started.
 * Context: writer. */
void js_heap_request(const char *native_path, uint64_t now_us);

/* Each writer cycle: when the snapshot asked for is whole (or the wait is
 * over), moves it and writes the JS_HEAP record.
 * Context: writer. */
void js_heap_poll(struct records *r, uint64_t now_us);

#endif
