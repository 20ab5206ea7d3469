/*
 * export.h - writes the traces of a recording as the report a user asked
 * for, in any format: shared by `stoke report` and `stoke merge`.
 */
#ifndef STOKE_CLI_EXPORT_H
#define STOKE_CLI_EXPORT_H

#include <stdio.h>

#include "time_window.h"
#include "traces.h"

struct export_options {
    const char *input;  /* names the traces in messages; HTML goes next to it by default */
    const char *output; /* NULL: the format's default place */
    int format;         /* enum stoke_output */
    int measure;        /* enum stoke_heap_value, or MEASURE_UNSET */
    int split_threads;
    int lines;          /* --lines: folded frames name the line they were at */
    const char *default_dir; /* non-NULL: other formats' default files go here,
                              * not next to input */
    struct time_window window; /* --from, --until */
};

/* Reads the options `stoke report` and `stoke merge` share (-o, --format,
 * --folded, --measure, --threads, --lines, --from, --until, --help; usage prints
 * the help) into opt,
 * the format chosen (see chosen_format). Returns -1 to go on (optind at the
 * first path), or the exit status to end with. */
int parse_export_options(const char *command, int argc, char **argv, void (*usage)(FILE *),
                         struct export_options *opt);

/* HTML: one report of every profile of r (tabs for heap snapshots), and
 * its summary. Other formats: the profile a text output shows (see
 * text_profile.h). Returns stoke's exit status; errors are printed. */
int export_recording(const struct recording *r, const struct export_options *opt);

#endif
