/*
 * cpuprofile.h - a CPU profile as Chrome DevTools' .cpuprofile (the JSON
 * that Node's --cpu-prof and the DevTools protocol's Profiler.stop give):
 * a call tree of nodes with call frames, and the samples as leaf node ids
 * with the time since the previous sample. DevTools' Performance panel and
 * VS Code open it. stoke keeps totals, not the order of samples: a node's
 * samples come one after another, each one period long.
 */
#ifndef STOKE_CPUPROFILE_H
#define STOKE_CPUPROFILE_H

#include "report.h"

/* The format holds one entry per sample: a profile of more samples (a
 * folded file's counts may be nanoseconds) is refused with EFBIG rather
 * than written as gigabytes. */
#define STOKE_CPUPROFILE_MAX_SAMPLES 10000000

/* Writes the first tab's profile, which must be a CPU profile (else -1,
 * EINVAL). */
stoke_writer stoke_write_cpuprofile;

#endif
