/*
 * keep_names.h - names every trace of a recording that no report read, so
 * that the recording keeps its names (read/recording_names.h) while the
 * binaries it ran are still there: stoke record --collect-only.
 */
#ifndef STOKE_CLI_KEEP_NAMES_H
#define STOKE_CLI_KEEP_NAMES_H

#include "traces.h"

/* Loads each CPU trace and heap snapshot of r on its own (each adds what
 * its binaries name to the recording's stored names) and drops what it
 * read. A trace that cannot be read is left to the report to tell. */
void keep_recording_names(const struct recording *r);

#endif
