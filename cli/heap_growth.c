/*
 * heap_growth.c - the live heap's growth in a window; see heap_growth.h.
 * Owns: reading the heap over time of a recording's CPU traces and
 * turning a window into before and after. Never reads a snapshot.
 */
#include "heap_growth.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include "heap_timeline.h"
#include "peek.h"
#include "profile_diff.h"
#include "time_window.h"

struct stoke_profile *load_heap_timeline(const struct recording *r, char *err, size_t errlen)
{
    const struct stoke_load_options opt = {.heap_timeline = 1};
    struct stoke_profile *p = stoke_profile_new();
    for (size_t i = 0; i < r->ncpu; i++)
        stoke_load_trace(p, r->cpu_traces[i], &opt, err, errlen); /* the CPU pass said why */
    if (stoke_has_heap_timeline(p))
        return p;
    snprintf(err, errlen, "%s holds no live heap over time; record it with stoke record "
                          "--heap to see what grew between two moments",
             r->window && r->window->recording ? r->window->recording : "the recording");
    stoke_profile_free(p);
    return NULL;
}

int has_heap_timeline(const struct recording *r)
{
    char err[PATH_MAX + 256];
    for (size_t i = 0; i < r->ncpu; i++) {
        struct stoke_trace_info info;
        if (stoke_peek_trace(r->cpu_traces[i], &info, err, sizeof err) == 0 &&
            info.heap_interval)
            return 1;
    }
    return 0;
}

static int64_t total_change(const struct stoke_profile *diff)
{
    return stoke_profile_total(diff, 1) - stoke_profile_total(diff, 0);
}

/* The live heap at from is unknown when from falls in a span a trace no
 * longer holds: 1 with err naming the option. */
static int live_heap_unknown(const struct time_window *w, const struct stoke_profile *p,
                             uint64_t from, char *err, size_t errlen)
{
    char dropped[512];
    if (!time_window_before_kept(p, from, dropped, sizeof dropped))
        return 0;
    snprintf(err, errlen, "--from %s: %s, so the live heap then is not known; give a later "
                          "--from", w->from.text ? w->from.text : "", dropped);
    return 1;
}

struct stoke_profile *load_heap_growth(const struct recording *r, size_t value_index, char *err,
                                       size_t errlen)
{
    struct time_window whole = {.recording = NULL};
    const struct time_window *w = r->window ? r->window : &whole;
    struct stoke_profile *before = load_heap_timeline(r, err, errlen), *after = NULL,
                         *diff = NULL;
    uint64_t from, until;
    if (before && resolve_time_window(w, before, &from, &until, err, errlen) == 0 &&
        !live_heap_unknown(w, before, from, err, errlen)) {
        after = load_heap_timeline(r, err, errlen);
        stoke_heap_live_at(before, from - 1);
        stoke_heap_live_at(after, until - 1);
        diff = stoke_profile_diff(before, after, value_index, STOKE_DIFF_ABSOLUTE);
        char span[128];
        describe_time_window(before, from, until, span, sizeof span);
        fprintf(stderr, "stoke: the live heap grew by %" PRId64 " %s from %s\n",
                total_change(diff), value_index ? "objects" : "bytes", span);
    }
    stoke_profile_free(before);
    stoke_profile_free(after);
    return diff;
}
