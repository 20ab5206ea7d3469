/*
 * diff_summary.h - a differential profile (stoke_profile_diff) on the
 * terminal: the stacks whose value changed most, as stoke diff and the
 * report of a load's growth print them.
 */
#ifndef STOKE_CLI_DIFF_SUMMARY_H
#define STOKE_CLI_DIFF_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "profile.h"

/* The count stacks of diff whose value changed most (either way), each as
 * its change and leaf function, under a line naming what (the measure). */
void print_largest_changes(FILE *out, const struct stoke_profile *diff, const char *what,
                           size_t count);

#endif
