/*
 * js_heap_diff.h - what grew between two heap snapshots, by constructor
 * group, as DevTools' Comparison view shows it: objects and bytes before
 * and after, and the objects new in the later snapshot or gone from the
 * earlier one, matched by V8's object ids (which an object keeps across
 * the snapshots of one process).
 *
 * A comparison also gives both snapshots as JS heap profiles, for
 * stoke_profile_diff (profile_diff.h): the differential flame graph of the
 * dominator paths. Both name plain objects after the later snapshot's
 * interfaces, as DevTools does, so the groups of the two match.
 *
 * The growth of a leak shows in several groups at once: 20,000 new Leak
 * objects each holding a new string grow both "Leak" and "(string)", and
 * the array that holds them retains it all. held_by_new names the group
 * whose new objects hold it: a new object that another new object
 * dominates counts in that one's group only, and old objects (the array)
 * hold nothing new by themselves. The groups' held_by_new add up to the
 * bytes the new objects retain.
 *
 * Never: reads a file (read/js_heap_load.h compares two), or needs two
 * snapshots' graphs at once (of the later one, its dominator tree is
 * kept).
 */
#ifndef STOKE_JS_HEAP_DIFF_H
#define STOKE_JS_HEAP_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include "js_heap_analysis.h"
#include "profile.h"

/* One constructor group of either snapshot (0 on the side without it). */
struct stoke_js_class_change {
    const char *name;
    int located;
    struct stoke_js_location where;
    uint64_t count[2];          /* [0] before, [1] after */
    uint64_t shallow_bytes[2];
    uint64_t retained_bytes[2];
    uint64_t new_count, new_bytes;         /* in after, not in before */
    uint64_t deleted_count, deleted_bytes; /* in before, not in after */
    uint64_t held_by_new;  /* bytes the group's new objects retain that no
                            * other new object retains: where the growth
                            * hangs (stoke_js_comparison_before only,
                            * else 0) */
};

struct stoke_js_heap_diff {
    struct stoke_js_class_change *classes; /* most held by new objects first,
                                            * then most grown (shallow bytes) */
    size_t nclasses;
    void *impl;
};

/* What a comparison needs of one snapshot, without its graph. */
struct stoke_js_census;

struct stoke_js_census *stoke_js_census_of(const struct stoke_js_heap_analysis *a);
void stoke_js_census_free(struct stoke_js_census *c);

/* The changes from before to after, groups matched by name and constructor
 * position. Free with stoke_js_heap_diff_free. */
struct stoke_js_heap_diff *stoke_js_heap_diff(const struct stoke_js_census *before,
                                              const struct stoke_js_census *after);
void stoke_js_heap_diff_free(struct stoke_js_heap_diff *d);

/* A comparison of two snapshots given one at a time, the later one
 * first: the per-group changes (with held_by_new, from the later
 * snapshot's dominator tree), and each snapshot added to a profile (an
 * empty profile, made a JS heap profile). A snapshot may be freed once it
 * is given. */
struct stoke_js_comparison;

/* Starts a comparison with the later snapshot, added to profile. */
struct stoke_js_comparison *stoke_js_comparison_after(const struct stoke_js_heap *after,
                                                      struct stoke_profile *profile);

/* Ends it with the earlier snapshot, added to profile: returns the
 * changes (free with stoke_js_heap_diff_free) and frees c. */
struct stoke_js_heap_diff *stoke_js_comparison_before(struct stoke_js_comparison *c,
                                                      const struct stoke_js_heap *before,
                                                      struct stoke_profile *profile);

/* Frees a comparison that is not ended. */
void stoke_js_comparison_free(struct stoke_js_comparison *c);

#endif
