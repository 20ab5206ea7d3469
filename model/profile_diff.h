/*
 * profile_diff.h - the differential profile of two profiles of one kind: what
 * changed from A (before) to B (after), stack by stack.
 *
 * Never: reads files or writes output.
 */
#ifndef STOKE_PROFILE_DIFF_H
#define STOKE_PROFILE_DIFF_H

#include <stddef.h>
#include "profile.h"

/* Returns a new profile with nvalues 2: value 0 "before" is value
 * value_index of a, value 1 "after" the same value of b, one row per stack
 * of either (0 on the side that lacks it), units those of the value. Frames
 * are matched by name, module, file and line; a process root "comm (pid)"
 * becomes "comm", so two runs of a program (different pids) line up. The
 * kind is a's; the process summaries are a's, then b's. Free with
 * stoke_profile_free. */
struct stoke_profile *stoke_profile_diff(const struct stoke_profile *a,
                                         const struct stoke_profile *b, size_t value_index);

#endif
