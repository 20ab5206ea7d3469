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

/* How the two sides' values are compared. */
enum stoke_diff_scale {
    STOKE_DIFF_ABSOLUTE = 0, /* as recorded */
    STOKE_DIFF_SHARES = 1,   /* each as a share of its side's total: the side
                              * of the smaller total is scaled up to the
                              * other's (difffolded.pl -n) */
};

/* Returns a new profile with nvalues 2: value 0 "before" is value
 * value_index of a, value 1 "after" the same value of b, one row per stack
 * of either (0 on the side that lacks it), units those of the value,
 * scaled as scale says (two sides of which one totals 0 stay as recorded;
 * diff.shares says which was done). Frames are matched by what they are,
 * never by address or line (frame_identity.h), so two builds and two runs
 * of a program line up, and by name alone where a side knows no modules
 * (folded stacks); a frame is shown as after has it. The kind is a's;
 * the process summaries are a's, then b's (diff.nprocs counts each side's).
 * Free with stoke_profile_free. */
struct stoke_profile *stoke_profile_diff(const struct stoke_profile *a,
                                         const struct stoke_profile *b, size_t value_index,
                                         enum stoke_diff_scale scale);

#endif
