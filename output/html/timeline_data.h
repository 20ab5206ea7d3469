/*
 * timeline_data.h - a tab's values over time, as the report's timeline
 * reads them: the recording cut into equal buckets (at most
 * TIMELINE_MAX_BUCKETS, each a round number of milliseconds, 10 ms or
 * more; one grid for every tab of a report, so a range of buckets means
 * the same time in each), and in each bucket the weight of every call
 * tree node, so the viewer rebuilds every view of any range of buckets by
 * adding them up:
 *
 *   "timeline":{"start_us":S,"end_us":E,"bucket_us":W,
 *               "offsets":[0,o1,...,oN],  (bucket b is entries offsets[b]..offsets[b+1])
 *               "node":[...],"weight":[...],  (preorder node, summed weight)
 *               "live_heap":[...]}  (the live heap over time only: live_heap_data.h)
 *
 * A CPU tab's weights are its samples (the periods they stand for); a
 * tab of the live heap over time (stoke_heap_growth_whole) weighs each
 * allocation stack's change of live bytes, so the live heap at a bucket
 * edge is the sum of the buckets before it. Times are microseconds since
 * the Unix epoch; bucket b covers [S + b*W, S + (b+1)*W).
 */
#ifndef STOKE_TIMELINE_DATA_H
#define STOKE_TIMELINE_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "call_tree.h"
#include "profile.h"
#include "report.h"

#define TIMELINE_MAX_BUCKETS 1000

/* The buckets every timeline of a report shares. */
struct timeline_grid {
    uint64_t start_us, end_us, width_us;
    uint64_t nbuckets; /* 0: no tab has a timeline */
};

/* The grid from the earliest start to the latest end of the tabs that
 * have times: CPU samples, or the live heap over time. */
struct timeline_grid timeline_grid_of(const struct stoke_report_tab *tabs, size_t ntabs);

/* The bucket of a moment (ns since the epoch), or UINT64_MAX off the grid. */
uint64_t timeline_bucket_of(const struct timeline_grid *g, uint64_t time_ns);

/* Writes ",\n\"timeline\":{...}" for a profile with sample times or the
 * live heap over time (nothing for any other, or without a grid). Returns
 * 0, or -1 when out of memory. */
int timeline_data_write(FILE *out, const struct stoke_profile *p, const struct call_tree *tree,
                        const struct timeline_grid *grid);

#endif
