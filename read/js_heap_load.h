/*
 * js_heap_load.h - V8 heap snapshot files (.heapsnapshot) into the model:
 * one as a JS heap profile (model/js_heap_profile.h), two compared by
 * constructor group (model/js_heap_diff.h).
 *
 * Never: holds two snapshots' graphs at once (each is read, summed up and
 * freed before the next).
 */
#ifndef STOKE_JS_HEAP_LOAD_H
#define STOKE_JS_HEAP_LOAD_H

#include <stddef.h>
#include "js_heap_diff.h"
#include "profile.h"

/* Reads the snapshot at path and adds it to p. Returns 0, or -1 with a
 * one-line message in err (then p is unchanged). */
int stoke_js_heap_load(struct stoke_profile *p, const char *path, char *err, size_t errlen);

/* Reads and compares two snapshots, the later first: the per-group
 * changes in *diff, and each snapshot added to its profile
 * (before_profile, after_profile: empty profiles, made JS heap profiles).
 * Returns 0, or -1 with a one-line message in err naming the file at
 * fault. */
int stoke_js_heap_compare(const char *before_path, const char *after_path,
                          struct stoke_profile *before_profile,
                          struct stoke_profile *after_profile, struct stoke_js_heap_diff **diff,
                          char *err, size_t errlen);

#endif
