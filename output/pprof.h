/*
 * pprof.h - the profile as pprof's profile.proto, gzipped: what go tool
 * pprof, Pyroscope, Parca and Grafana read.
 *
 * CPU profiles follow Go's conventions: sample types samples/count and
 * cpu/nanoseconds (wall/nanoseconds for wall-clock traces), period type
 * cpu/nanoseconds (or wall). Heap profiles carry alloc_objects/count,
 * alloc_space/bytes, inuse_objects/count and inuse_space/bytes, period
 * type space/bytes with the sampling interval. stoke's process and thread
 * roots become the sample labels comm, pid and thread; code frames become
 * locations (an address's inline chain is one location of several lines),
 * functions (name and file) and mappings (module and build-id).
 */
#ifndef STOKE_PPROF_H
#define STOKE_PPROF_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"
#include "report.h"

/* Sets *out (malloc'ed) and *len to the gzipped profile; returns 0, or -1
 * when it cannot be encoded. */
int stoke_pprof_encode(const struct stoke_profile *p, uint8_t **out, size_t *len);

/* Writes the first tab's profile, gzipped, every value of it. */
stoke_writer stoke_write_pprof;

#endif
