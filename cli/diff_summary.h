/*
 * diff_summary.h - a differential profile (stoke_profile_diff) on the
 * terminal: its two sides, and the functions whose own value changed most,
 * each once, as stoke diff and the report of a load's growth print them.
 */
#ifndef STOKE_CLI_DIFF_SUMMARY_H
#define STOKE_CLI_DIFF_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "profile.h"

/* The count functions of diff whose own value (of the stacks whose leaf
 * code is in them, inlined code counted in the function it was inlined
 * into) changed most, either way, each once however many stacks end in
 * it: its change, before -> after and the share of each side's total,
 * under a line naming what (the measure) and how the sides were scaled
 * (diff->diff.shares: the change in points of share). */
void print_largest_changes(FILE *out, const struct stoke_profile *diff, const char *what,
                           size_t count);

/* One line on diff's two sides: each one's total of what as recorded and
 * its processes, and whether they are compared as shares or as recorded. */
void print_sides(FILE *out, const struct stoke_profile *diff, const char *what);

#endif
