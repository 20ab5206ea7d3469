/*
 * continuous_push.h - `stoke record --push URL --push-every D`: while the
 * program runs, a thread of stoke sends each completed window of its CPU
 * samples to a Pyroscope-compatible server (ingest.h) as pprof, with the
 * window's from and until, and the last window once the program has
 * ended. Windows are contiguous; every sample of the recording goes in
 * exactly one window (each trace's samples are counted as they are sent,
 * so one that reaches the trace late goes with the next window). A window
 * the server did not take is tried again, then kept in the output
 * directory (push-FROM-UNTIL.pb.gz) and reported. The profiled program
 * never waits for any of it.
 */
#ifndef STOKE_CLI_CONTINUOUS_PUSH_H
#define STOKE_CLI_CONTINUOUS_PUSH_H

#include <stdint.h>

#include "ingest.h"
#include "output_files.h"

#define PUSH_EVERY_DEFAULT_MS 15000
#define PUSH_FILE_PREFIX "push-"
#define PUSH_FILE_SUFFIX ".pb.gz"

struct push_plan {
    struct ingest_options ingest; /* ingest.url NULL: no pushing */
    uint64_t every_ms;
};

struct continuous_push;

/* Starts pushing the traces written into dir but those of earlier (both
 * must outlive the pusher). Returns NULL (after saying why) when it cannot
 * start; the recording goes on without it. */
struct continuous_push *continuous_push_start(const struct push_plan *plan, const char *dir,
                                              const struct output_files *earlier);

/* Once the program has ended: sends the last window, says what was sent
 * and kept, and frees c (NULL: nothing to do). */
void continuous_push_stop(struct continuous_push *c);

#endif
