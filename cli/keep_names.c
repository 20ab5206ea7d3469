/*
 * keep_names.c - stores the names of a recording no report read; see
 * keep_names.h.
 *
 * Owns: which traces of a recording are read only for their names.
 * Never: writes a report, or prints what a report would (loading warns of
 * damage as any reading does).
 */
#include "keep_names.h"

#include <stddef.h>
#include "profile.h"
#include "trace_load.h"

static void name_trace(const char *path)
{
    char err[512];
    struct stoke_profile *p = stoke_profile_new();
    stoke_load_trace(p, path, NULL, err, sizeof err); /* the report says why it fails */
    stoke_profile_free(p);
}

void keep_recording_names(const struct recording *r)
{
    for (size_t i = 0; i < r->ncpu; i++)
        name_trace(r->cpu_traces[i]);
    for (size_t i = 0; i < r->nsnapshots; i++)
        name_trace(r->snapshots[i].path);
}
