/*
 * text_profile.c - picks and loads the profile a text output shows; see
 * text_profile.h. Owns the rule "CPU unless --measure names a heap
 * measure (then the last snapshot of that heap)". Never writes output.
 */
#include "text_profile.h"

#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "measure.h"

int shows_heap_by_default(const struct recording *r)
{
    return r->ncpu == 0;
}

int default_heap_measure(const struct recording *r)
{
    return r->nsnapshots ? STOKE_HEAP_LIVE_BYTES : MEASURE_JS_SHALLOW;
}

static int load_last_js_snapshots(const char *path, const struct recording *r, int measure,
                                  struct text_profile *out, char *err, size_t errlen)
{
    if (!has_js_snapshots(r)) {
        snprintf(err, errlen,
                 "'%s' holds no JavaScript heap snapshot; --measure %s needs one (a node "
                 "program recorded with stoke record --heap, then stoke heap PID; or a "
                 ".heapsnapshot file)",
                 path, measure_option(measure));
        return -1;
    }
    const char **last = stoke_xmalloc((r->nsnapshots + r->njs_alone) * sizeof *last);
    size_t n = last_js_snapshots(r, last);
    out->profile = load_js_snapshots(last, n, err, errlen);
    out->value_index = measure_value_index(measure);
    free(last);
    return out->profile ? 0 : -1;
}

static int load_last_snapshots(const char *path, const struct recording *r, int measure,
                               struct text_profile *out, char *err, size_t errlen)
{
    if (!r->nsnapshots) {
        snprintf(err, errlen,
                 "'%s' holds no heap snapshot; --measure %s needs one (record with "
                 "stoke record --heap)",
                 path, measure_option(measure));
        return -1;
    }
    const struct snapshot **last = stoke_xmalloc(r->nsnapshots * sizeof *last);
    size_t n = last_snapshots(r, last);
    out->profile = load_snapshots(last, n, err, errlen);
    out->value_index = (size_t)measure;
    free(last);
    return out->profile ? 0 : -1;
}

int load_text_profile(const char *path, const struct recording *r, int measure,
                      const struct stoke_load_options *opt, struct text_profile *out, char *err,
                      size_t errlen)
{
    if (measure == MEASURE_UNSET && shows_heap_by_default(r))
        measure = default_heap_measure(r);
    if (is_js_measure(measure))
        return load_last_js_snapshots(path, r, measure, out, err, errlen);
    if (measure != MEASURE_UNSET)
        return load_last_snapshots(path, r, measure, out, err, errlen);
    out->profile = load_cpu_profile(r, opt, err, errlen);
    out->value_index = 0;
    return out->profile ? 0 : -1;
}
