/*
 * speedscope.h - the profile in speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): one "sampled"
 * profile per process (per thread with stoke report --threads), frames
 * with name, file and line shared by all.
 */
#ifndef STOKE_SPEEDSCOPE_H
#define STOKE_SPEEDSCOPE_H

#include <stddef.h>
#include <stdio.h>
#include "profile.h"

/* Writes value value_index of p. CPU profiles weigh samples in
 * nanoseconds (samples x period); heap values in bytes or as plain counts.
 * name names the file in speedscope's title bar. Returns 0 or -1. */
int stoke_write_speedscope(FILE *out, const struct stoke_profile *p, size_t value_index,
                           const char *name);

#endif
