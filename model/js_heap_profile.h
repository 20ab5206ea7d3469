/*
 * js_heap_profile.h - a V8 heap snapshot in stoke's profile model, so every
 * output (folded, the HTML flame graph, pprof, speedscope) and the
 * differential ones show it.
 *
 * The profile is of kind STOKE_PROFILE_JS_HEAP with two values,
 * "js_shallow" (bytes) and "js_objects" (count) (enum stoke_js_heap_value).
 * Each object adds its shallow size and 1 to the stack of its place in the
 * dominator tree: the root frame "JS heap", then the constructor groups of
 * its dominators from the top (V8's roots by their own names: "(GC roots)",
 * "C++ roots"), then its own. A frame's width is thus the bytes retained
 * by the objects under it, grouped by constructor. Consecutive frames of
 * one group are one frame (a linked list of Item is one "Item"); below
 * STOKE_JS_HEAP_MAX_DEPTH frames a path goes on as "[deeper]" and the
 * object's own group. Frames are of kind STOKE_KIND_JS_HEAP (the root:
 * STOKE_KIND_PROCESS); a group with a constructor in JavaScript has its
 * position: file "script <id>" (V8's script id), line and column from 1.
 * Objects DevTools does not count (of zero shallow size) add nothing.
 *
 * Never: reads the snapshot's file (read/js_heap_load.h does), or writes
 * output.
 */
#ifndef STOKE_JS_HEAP_PROFILE_H
#define STOKE_JS_HEAP_PROFILE_H

#include <stddef.h>
#include "js_heap_analysis.h"
#include "profile.h"

#define STOKE_JS_HEAP_ROOT "JS heap"
#define STOKE_JS_HEAP_DEEPER "[deeper]"
#define STOKE_JS_HEAP_MAX_DEPTH 64 /* frames of a stack, the root's included */

/* Makes p a JS heap profile: kind STOKE_PROFILE_JS_HEAP and its two value
 * types. */
void stoke_make_js_heap_profile(struct stoke_profile *p);

/* Adds the analysed snapshot to p (made a JS heap profile first), with a
 * process summary: comm "JS heap", the snapshot's path, and its total
 * bytes and objects as heap.live_bytes and heap.live_objects. */
void stoke_js_heap_add_to_profile(struct stoke_profile *p, const struct stoke_js_heap_analysis *a);

#endif
