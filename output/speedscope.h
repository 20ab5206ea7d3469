/*
 * speedscope.h - the profile in speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): one "sampled"
 * profile per process (per thread with stoke report --threads), frames
 * with name, file and line shared by all.
 */
#ifndef STOKE_SPEEDSCOPE_H
#define STOKE_SPEEDSCOPE_H

#include "report.h"

/* Writes value value_index of the first tab's profile. CPU profiles weigh
 * samples in nanoseconds (samples x period); heap values in bytes or as
 * plain counts. The title names the file in speedscope's title bar. */
stoke_writer stoke_write_speedscope;

#endif
