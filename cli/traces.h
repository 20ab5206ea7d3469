/*
 * traces.h - gathers the trace files of a path into one profile.
 */
#ifndef STOKE_CLI_TRACES_H
#define STOKE_CLI_TRACES_H

#include <stddef.h>

#include "load.h"
#include "profile.h"

/* 1 if a file name is a trace's (ends in ".stoke"). */
int is_trace_name(const char *name);

/* The number of traces in directory dir, or -1 if it cannot be read. */
int count_traces(const char *dir);

/* Loads the trace at path, or every trace in the directory path in name
 * order, into p. A trace of a directory that cannot be read is reported on
 * stderr and skipped. Returns the number of traces loaded (0: a directory
 * without traces), or -1 with a one-line message in err. */
int load_traces(struct stoke_profile *p, const char *path,
                const struct stoke_load_options *opt, char *err, size_t errlen);

#endif
