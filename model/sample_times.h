/*
 * sample_times.h - when each CPU sample was taken: the list a profile read
 * from traces keeps beside its totals (struct stoke_sample_list in
 * profile.h), the recording's start, and the window of time a report keeps.
 *
 * Never: reads files, or changes a profile without samples.
 */
#ifndef STOKE_SAMPLE_TIMES_H
#define STOKE_SAMPLE_TIMES_H

#include <stdint.h>
#include "profile.h"

/* Adds s (weight periods on a stack, taken at time_ns in a thread of a
 * process) to its stack's row (value 0) and to p->samples. */
void stoke_profile_add_sample(struct stoke_profile *p, const struct stoke_sample *s);

/* When the recording began: the earliest start of its processes, in ns
 * since the Unix epoch; else its first sample's time; 0 without either. */
uint64_t stoke_profile_start_ns(const struct stoke_profile *p);

/* When the recording ended: its last process's end, or its last sample's
 * time when later (ns since the epoch); 0 without either. */
uint64_t stoke_profile_end_ns(const struct stoke_profile *p);

/* Keeps the samples for which keep(sample, its index, ctx) returns 1:
 * value 0 of every row, each process's sample count and CPU time become
 * those of the samples kept. */
void stoke_profile_keep_samples(struct stoke_profile *p,
                                int (*keep)(const struct stoke_sample *s, size_t i, void *ctx),
                                void *ctx);

/* Keeps the samples taken in [from_ns, until_ns) only. */
void stoke_profile_keep_window(struct stoke_profile *p, uint64_t from_ns, uint64_t until_ns);

/* Orders p->samples by time. */
void stoke_profile_sort_samples(struct stoke_profile *p);

#endif
