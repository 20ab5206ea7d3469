/*
 * text_profile.h - which profile and value a text output (folded stacks, a
 * diff) shows for the traces of a path.
 */
#ifndef STOKE_CLI_TEXT_PROFILE_H
#define STOKE_CLI_TEXT_PROFILE_H

#include <stddef.h>

#include "profile.h"
#include "trace_load.h"
#include "traces.h"

struct text_profile {
    struct stoke_profile *profile;
    size_t value_index; /* the value to write */
};

/* 1 when a text output of r without --measure shows heap values: r has no
 * CPU trace. */
int shows_heap_by_default(const struct recording *r);

/* The measure a text output of r shows when r has no CPU trace and no
 * --measure was given: live bytes of the native heap, or of the
 * JavaScript heap when r holds only JavaScript heap snapshots. */
int default_heap_measure(const struct recording *r);

/* With a heap measure (measure.h): the last snapshot of each process of r
 * of that heap, that value. With MEASURE_UNSET: the CPU traces of r, or
 * default_heap_measure of the last snapshots when r has no CPU trace. path names r in
 * messages. Returns 0, or -1 with a one-line message in err. */
int load_text_profile(const char *path, const struct recording *r, int measure,
                      const struct stoke_load_options *opt, struct text_profile *out, char *err,
                      size_t errlen);

#endif
