/*
 * heap_growth.h - what grew in the live heap during a window of a --heap
 * recording (--from, --until), by allocation stack, from the live heap over
 * time its CPU traces hold (HEAP_GROWTH records): no snapshot needed.
 */
#ifndef STOKE_CLI_HEAP_GROWTH_H
#define STOKE_CLI_HEAP_GROWTH_H

#include <stddef.h>

#include "profile.h"
#include "traces.h"

/* 1 when a CPU trace of r was recorded with heap tracking, so it holds the
 * live heap over time (a trace of a stoke older than format 1.4 does not:
 * load_heap_growth then says so). Reads only the traces' first records. */
int has_heap_timeline(const struct recording *r);

/* The live heap over time of r's CPU traces in a new heap profile
 * (heap_timeline.h); NULL with a one-line message in err when none holds
 * it. */
struct stoke_profile *load_heap_timeline(const struct recording *r, char *err, size_t errlen);

/* A differential heap profile of live bytes (or objects, value_index):
 * value 0 the live heap at the start of r->window, value 1 at its end.
 * Says the growth on stderr. NULL with a one-line message in err when r
 * has no heap over time or the window cannot be kept. */
struct stoke_profile *load_heap_growth(const struct recording *r, size_t value_index, char *err,
                                       size_t errlen);

#endif
