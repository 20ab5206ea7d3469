/*
 * heap_summary.h - the short account of heap snapshots printed on the
 * terminal: one line per snapshot and the largest allocation stacks.
 */
#ifndef STOKE_CLI_HEAP_SUMMARY_H
#define STOKE_CLI_HEAP_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "profile.h"

/* What took a snapshot, as the report names it: "signal", "api", "exit",
 * "peak". */
const char *trigger_name(int trigger);

/* "stoke: heap snapshot 2 (exit) in PATH: 10.0 MiB live in 10
 * objects, ..." for the snapshot of one process summary. */
void print_snapshot_line(FILE *out, const struct stoke_process_summary *snapshot);

/* The count stacks of heap profile p (one snapshot) with the largest value
 * of measure (enum stoke_heap_value), each as its value and leaf function. */
void print_largest_stacks(FILE *out, const struct stoke_profile *p, int measure, size_t count);

#endif
