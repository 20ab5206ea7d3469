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

#endif
