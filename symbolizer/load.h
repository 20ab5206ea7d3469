/*
 * load.h - turns trace files into a profile: reads records (reader.c),
 * names addresses (symbolize.c) and adds rows to the model (profile.h).
 *
 * Never: writes output files, or exits the process.
 */
#ifndef STOKE_LOAD_H
#define STOKE_LOAD_H

#include <stddef.h>
#include "profile.h"

struct stoke_load_options {
    int split_threads; /* add a "name (tid)" frame under each process root */
};

/* Reads the trace at path and adds its samples to p, each stack rooted at a
 * "comm (pid)" frame. Problems that still leave data (truncation, a binary
 * changed since the run) are warned about on stderr, prefixed with the path.
 * Returns 0 on success, -1 when nothing could be read; then err holds a
 * one-line message naming the file and what to do. */
int stoke_load_trace(struct stoke_profile *p, const char *path,
                     const struct stoke_load_options *opt, char *err, size_t errlen);

#endif
