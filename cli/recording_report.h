/*
 * recording_report.h - the HTML report of a recording and its terminal
 * summary, shared by `stoke record` (after the run) and `stoke report`.
 */
#ifndef STOKE_CLI_RECORDING_REPORT_H
#define STOKE_CLI_RECORDING_REPORT_H

#include "load_marks.h"
#include "summary.h"
#include "trace_load.h"
#include "traces.h"

/* Writes the report of the traces r to html_path: one flame graph, or,
 * with heap snapshots, one tab per profile (CPU first; then, when marks
 * (NULL: none) name the snapshots taken as a load started and ended, what grew in
 * between in each heap; then each snapshot by process and sequence, its
 * JavaScript half after it, a process's peak snapshot last), with the load
 * command's output under it (NULL: none). Then prints on stderr where it
 * went and the summary (largest stacks by measure, live bytes when
 * MEASURE_UNSET or a JavaScript measure; the constructors that hold the
 * most of each JavaScript heap). Returns 0, or -1 when no report could be
 * written (already said why). */
int report_recording(const struct recording *r, const struct stoke_load_options *opt,
                     int measure, const char *load_output, const struct load_marks *marks,
                     const char *html_path, const struct run_measures *run);

#endif
