/*
 * heap_snapshot.h - writes a heap snapshot: a standalone trace file with
 * the process's description, its modules, every allocation stack and the
 * heap values of each (see HEAP records in include/stoke_format.h).
 * The program is never stopped: the counters are read one by one with
 * atomic loads.
 */
#ifndef STOKE_AGENT_HEAP_SNAPSHOT_H
#define STOKE_AGENT_HEAP_SNAPSHOT_H

#include <stddef.h>

#include "process_records.h"

/* Writes a snapshot to path, or when path is NULL to
 * <dir>/<comm>.<pid>.heap.<seq>.<YYYYmmdd-HHMMSS>.stoke (UTC), or for the
 * peak trigger to <dir>/<comm>.<pid>.heap.peak.stoke (replaced each time).
 * The file is written under a temporary name and appears whole when
 * complete; an existing file at path is never replaced (EEXIST).
 * Returns 0 and the path in written, or -1 with errno set.
 * Context: writer. */
int heap_snapshot_write(const struct process_description *d, const char *dir,
                        const char *path, int trigger, char *written, size_t cap);

/* fork child: its snapshots count from 1 again.
 * Context: program. */
void heap_snapshot_reset(void);

#endif
