/*
 * folded.h - writes a profile as folded stacks, exactly the text format of
 * flamegraph.pl: "root;caller;leaf <integer>\n" per distinct stack.
 */
#ifndef STOKE_FOLDED_H
#define STOKE_FOLDED_H

#include <stdio.h>
#include "profile.h"

/* Writes value value_index of every row with a non-zero value. Returns 0, or
 * -1 on a write error (errno set). */
int stoke_write_folded(FILE *out, const struct stoke_profile *p, size_t value_index);

/* Writes a differential profile (stoke_profile_diff: values 0 and 1) as
 * difffolded.pl does: "root;caller;leaf BEFORE AFTER\n" for every stack
 * with a non-zero value on either side. Returns 0, or -1 on a write error. */
int stoke_write_folded_diff(FILE *out, const struct stoke_profile *diff);

#endif
