/*
 * timeline_data.h - a CPU tab's samples over time, as the report's timeline
 * reads them: the recording cut into equal buckets (at most
 * TIMELINE_MAX_BUCKETS, each a round number of milliseconds, 10 ms or
 * more), and in each bucket the weight of every call tree node samples
 * ended at, so the viewer rebuilds every view of any range of buckets by
 * adding them up:
 *
 *   "timeline":{"start_us":S,"end_us":E,"bucket_us":W,
 *               "offsets":[0,o1,...,oN],  (bucket b is entries offsets[b]..offsets[b+1])
 *               "node":[...],"weight":[...]}  (preorder node, summed weight)
 *
 * Times are microseconds since the Unix epoch; bucket b covers
 * [S + b*W, S + (b+1)*W).
 */
#ifndef STOKE_TIMELINE_DATA_H
#define STOKE_TIMELINE_DATA_H

#include <stdio.h>

#include "call_tree.h"
#include "profile.h"

#define TIMELINE_MAX_BUCKETS 1000

/* Writes ",\n\"timeline\":{...}" for a profile with sample times (nothing
 * for one without). Returns 0, or -1 when out of memory. */
int timeline_data_write(FILE *out, const struct stoke_profile *p, const struct call_tree *tree);

#endif
