/*
 * js_heap_load.c - V8 heap snapshot files into the model; see
 * js_heap_load.h.
 *
 * Owns: the order of reading (one graph in memory at a time) and the
 * refusal of a snapshot that would join another kind of profile.
 * Never: analyses a graph itself (model/js_heap_*.c do).
 */
#include "js_heap_load.h"

#include <stdio.h>

#include "js_heap_profile.h"
#include "js_heap_read.h"

int stoke_js_heap_load(struct stoke_profile *p, const char *path, char *err, size_t errlen)
{
    if (p->nprocs && p->kind != STOKE_PROFILE_JS_HEAP) {
        snprintf(err, errlen,
                 "%s is a V8 heap snapshot and cannot join %s in one profile; report it on "
                 "its own",
                 path, p->kind == STOKE_PROFILE_HEAP ? "heap snapshots" : "CPU traces");
        return -1;
    }
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, errlen);
    if (!h)
        return -1;
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    stoke_js_heap_add_to_profile(p, a);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
    return 0;
}

int stoke_js_heap_compare(const char *before_path, const char *after_path,
                          struct stoke_profile *before_profile,
                          struct stoke_profile *after_profile, struct stoke_js_heap_diff **diff,
                          char *err, size_t errlen)
{
    *diff = NULL;
    struct stoke_js_heap *h = stoke_js_heap_read(after_path, err, errlen);
    if (!h)
        return -1;
    struct stoke_js_comparison *c = stoke_js_comparison_after(h, after_profile);
    stoke_js_heap_free(h);
    h = stoke_js_heap_read(before_path, err, errlen);
    if (!h) {
        stoke_js_comparison_free(c);
        return -1;
    }
    *diff = stoke_js_comparison_before(c, h, before_profile);
    stoke_js_heap_free(h);
    return 0;
}
