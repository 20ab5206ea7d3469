/*
 * folded_report.h - `stoke report FILE` where FILE holds folded stacks
 * written by another tool (or by stoke report --folded): the same HTML
 * report, or folded stacks again, without any trace.
 */
#ifndef STOKE_CLI_FOLDED_REPORT_H
#define STOKE_CLI_FOLDED_REPORT_H

/* Writes the report of the folded stacks in input to output in format
 * (enum stoke_output; output NULL: HTML next to input, other formats at
 * their default place). Returns the exit status (errors already said on
 * stderr). */
int report_folded_stacks(const char *input, const char *output, int format);

#endif
