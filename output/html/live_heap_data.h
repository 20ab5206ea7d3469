/*
 * live_heap_data.h - each process's live heap over time (its HEAP_TOTALS
 * moments) on the report's grid of buckets, as the timeline draws it: per
 * process, the buckets that hold a moment and the most live bytes of
 * those moments, so a bucket's peak is never lost and a recording of any
 * length writes at most TIMELINE_MAX_BUCKETS numbers per process:
 *
 *   "live_heap":[{"process":P,  (index into the tab's "processes")
 *                 "bucket":[b0,b1,...],"bytes":[n0,n1,...]}, ...]
 *
 * A bucket without a moment holds the live heap of the one before it.
 */
#ifndef STOKE_LIVE_HEAP_DATA_H
#define STOKE_LIVE_HEAP_DATA_H

#include <stdio.h>

#include "profile.h"
#include "timeline_data.h"

/* Writes ",\n\"live_heap\":[...]" of p's moments. Returns 0, or -1 when
 * out of memory. */
int live_heap_data_write(FILE *out, const struct stoke_profile *p, const struct timeline_grid *g);

#endif
