/*
 * process_perfmap.h - the perf map of one traced process: perf-<pid>.map
 * next to its trace, else in /tmp. Anyone may create a file in /tmp, so a
 * map is read only when the process's user (the owner of its trace) or root
 * owns it; a map that is ignored, or read only in part (perfmap.h), is
 * warned about once, naming it.
 *
 * Never: parses a map (perfmap.c does), or reads one of another user.
 */
#ifndef STOKE_PROCESS_PERFMAP_H
#define STOKE_PROCESS_PERFMAP_H

#include <stdint.h>
#include "perfmap.h"

/* The map of process pid of the trace at trace_path (which prefixes the
 * warnings), or NULL when there is none to read. */
struct stoke_perfmap *stoke_process_perfmap(const char *trace_path, uint32_t pid);

#endif
