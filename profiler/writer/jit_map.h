/*
 * jit_map.h - the process's perf map (/tmp/perf-<pid>.map: the names a JIT
 * runtime gives the code it generates; node writes it as it compiles, the
 * JVM at exit), copied into the trace as JIT_MAP records while it grows, so
 * a recording names its JavaScript and Java methods later, elsewhere, or
 * after /tmp was cleaned, and a SIGKILL loses at most the last cycle.
 *
 * Only a regular file owned by the process's user (or root) is read, at
 * most STOKE_MAX_JIT_MAP_BYTES of it, whole lines only. When stoke turned
 * the map on itself (program/runtime_names.h), the file is removed once it is in
 * the trace. The records go where the writer's go.
 */
#ifndef STOKE_AGENT_JIT_MAP_H
#define STOKE_AGENT_JIT_MAP_H

#include <stdint.h>

#include "records.h"

/* Starts following the map of the current process (at the writer's start,
 * and again in a fork child: another pid, another map).
 * Context: writer. */
void jit_map_start(void);

/* The next poll copies the map from its start again: a new part of the
 * trace holds the whole map (trace_parts.h).
 * Context: writer. */
void jit_map_restart(void);

/* Closes the map (at the writer's end; in a fork child, the copy of its
 * parent's, if it has one).
 * Context: writer, program. */
void jit_map_close(void);

/* Appends the lines added to the map since the last call as JIT_MAP
 * records stamped time_us. Cheap when nothing changed (one fstat).
 * Context: writer. */
void jit_map_poll(struct records *r, uint64_t time_us);

/* The last poll, at the end of the trace; removes the map when stoke
 * asked the runtime for it and the program did not.
 * Context: writer. */
void jit_map_finish(struct records *r, uint64_t time_us);

#endif
