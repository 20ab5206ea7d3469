/*
 * peek.h - tells what a trace file is (a CPU trace or a heap snapshot, of
 * which process, with which heap settings) from its first records, without
 * symbolizing, so a caller can sort the files of a recording before
 * loading them, or learn a running process's settings from the trace it
 * is writing.
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
    int heap_settings;              /* enum stoke_heap_settings */
    uint64_t heap_interval;         /* STOKE_HEAP_SETTINGS_READ: 0 without heap tracking */
    uint32_t heap_signal;           /* the same: 0 without a snapshot signal */
    uint32_t heap_signal_tid;       /* the thread to send it to (since 1.3), 0: the process */
    uint32_t js_heap_signal;        /* node's V8 heap snapshot signal (1.3), 0: none */
    uint32_t js_heap_seq;           /* the last JS_HEAP record (stoke_peek_process): its */
    uint64_t js_heap_took_us;       /* snapshot sequence and how long node took; 0: none */
};

/* Whether a trace told its process's heap settings (PROCESS, since 1.2). */
enum stoke_heap_settings {
    STOKE_HEAP_SETTINGS_MISSING = -1, /* no PROCESS record, or one cut short */
    STOKE_HEAP_SETTINGS_PREDATED = 0, /* a format older than 1.2, which has none */
    STOKE_HEAP_SETTINGS_READ = 1,
};

/* Reads path up to its first SAMPLES, HEAP or END record. Returns 0, or -1
 * when the file cannot be used at all (err then names it and what to do). */
int stoke_peek_trace(const char *path, struct stoke_trace_info *info, char *err,
                     size_t errlen);

/* Reads the heap settings of path's process: its PROCESS record (the first
 * of a trace, written as the process starts), changed by any HEAP_SIGNAL
 * record after it (the program took the signal over); pid and the last
 * JS_HEAP record too, kind left CPU. Reads the whole trace written so far.
 * The same returns. */
int stoke_peek_process(const char *path, struct stoke_trace_info *info, char *err,
                       size_t errlen);

#endif
