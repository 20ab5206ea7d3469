/*
 * trace_load.h - turns trace files into a profile: reads records (reader.c),
 * names addresses (name/symbolize.h) and adds rows to the model
 * (model/profile.h).
 *
 * Never: writes output files, or exits the process.
 */
#ifndef STOKE_TRACE_LOAD_H
#define STOKE_TRACE_LOAD_H

#include <stddef.h>
#include "profile.h"

struct stoke_load_options {
    int split_threads;   /* add a "name (tid)" frame under each process root */
    int merge_processes; /* root the stacks of every process of one command at
                          * one "comm (all processes)" frame, not "comm (pid)" */
    int keep_tiers;      /* JavaScript frames keep their V8 tier (the HTML
                          * report merges them itself); else one frame per
                          * function */
    int heap_timeline;   /* read the live heap over time of a --heap recording's
                          * CPU trace (HEAP_TOTALS, HEAP_GROWTH) into a heap
                          * profile (heap_timeline.h), not its samples */
    int one_part;        /* of a trace in parts, read the file named only, not
                          * the parts after it (each part holds its own
                          * samples and names; the live heap needs them all) */
    int live;            /* the trace is still being written and read again
                          * later: its incomplete last frame is no damage, and
                          * the agent's notes wait for the final reading */
};

/* Reads the trace at path and adds its samples to p, each stack rooted at a
 * "comm (pid)" frame. A heap snapshot (a file with a HEAP record) adds its
 * allocation stacks' four heap values instead (enum stoke_heap_value), and
 * its HEAP record to the process summary (heap). The first file loaded sets
 * p->kind (enum stoke_profile_kind); a file of the other kind is refused
 * (-1, p unchanged but for unused frames), so a profile never mixes them.
 * Problems that still leave data (truncation, a binary changed since the
 * run) are warned about on stderr, prefixed with the path.
 * Returns 0 on success, -1 when nothing could be read; then err holds a
 * one-line message naming the file and what to do. */
int stoke_load_trace(struct stoke_profile *p, const char *path,
                     const struct stoke_load_options *opt, char *err, size_t errlen);

#endif
