/*
 * load_and_write.h - what `stoke report` does with a trace file, for the
 * trace fuzzers: tells its kind, loads it (with and without thread frames)
 * and writes the profile in every output format of the registry, each of
 * its values, and as a differential profile beside itself (folded and
 * HTML), to /dev/null, so names and values from a hostile trace pass
 * through every writer.
 *
 * Never: checks what the writers wrote (the sanitizers check how).
 */
#ifndef STOKE_FUZZ_LOAD_AND_WRITE_H
#define STOKE_FUZZ_LOAD_AND_WRITE_H

#include "profile.h"

void load_and_write(const char *trace_path);

/* Writes p in every output format to /dev/null. */
void write_every_format(const struct stoke_profile *p);

#endif
