/*
 * heap_timeline.h - the live heap of a recording over time: moments (a
 * process's totals) and changes (by allocation stack), as a profile read
 * from the CPU traces of a --heap recording keeps them (struct
 * stoke_heap_timeline in profile.h), and the heap they add up to at any
 * moment.
 *
 * Never: reads files, or formats output.
 */
#ifndef STOKE_HEAP_TIMELINE_H
#define STOKE_HEAP_TIMELINE_H

#include <stdint.h>
#include "profile.h"

void stoke_profile_add_heap_moment(struct stoke_profile *p, const struct stoke_heap_moment *m);
void stoke_profile_add_heap_change(struct stoke_profile *p, const struct stoke_heap_change *c);

/* 1 when p holds the live heap over time. */
int stoke_has_heap_timeline(const struct stoke_profile *p);

/* Sets the live values of every row of p (a heap profile) to the live heap
 * at at_ns (wall clock): the sum of each stack's changes up to then; the
 * allocated values to 0 (the timeline does not keep them by stack). */
void stoke_heap_live_at(struct stoke_profile *p, uint64_t at_ns);

/* Makes p (a heap profile with its live heap over time) the differential
 * profile of its whole recording, as stoke_profile_diff names values:
 * value 0 "before" the live bytes as it began (none yet), value 1 "after"
 * as it ended, by stack. Its stacks and timeline stay as they were, so the
 * growth between any two other moments can be added up from the changes
 * (the HTML report's "heap: grew in range"). */
void stoke_heap_growth_whole(struct stoke_profile *p);

#endif
