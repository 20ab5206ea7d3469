/*
 * folded.h - writes profiles as folded stacks, exactly the text format of
 * flamegraph.pl: "root;caller;leaf <integer>\n" per distinct stack.
 */
#ifndef STOKE_FOLDED_H
#define STOKE_FOLDED_H

#include "report.h"

/* Writes every tab, one after the other: value value_index of every row
 * with a non-zero value; a differential tab (stoke_profile_diff: values 0
 * and 1) as difffolded.pl does, "root;caller;leaf BEFORE AFTER\n" for
 * every stack with a non-zero value on either side. */
stoke_writer stoke_write_folded;

#endif
