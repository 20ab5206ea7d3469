/*
 * peek.h - tells what a trace file is (a CPU trace or a heap snapshot, of
 * which process) from its first records, without symbolizing, so a caller
 * can sort the files of a recording before loading them.
 *
 * Never: adds anything to a profile.
 */
#ifndef STOKE_PEEK_H
#define STOKE_PEEK_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

struct stoke_trace_info {
    int kind;                       /* enum stoke_profile_kind */
    uint32_t pid;                   /* 0 when the file has no PROCESS record */
    struct stoke_heap_summary heap; /* kind HEAP: the snapshot's HEAP record */
};

/* Reads path up to its first SAMPLES, HEAP or END record. Returns 0, or -1
 * when the file cannot be used at all (err then names it and what to do). */
int stoke_peek_trace(const char *path, struct stoke_trace_info *info, char *err,
                     size_t errlen);

#endif
