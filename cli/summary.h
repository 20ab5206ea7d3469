/*
 * summary.h - the short account of a profile printed on the terminal.
 */
#ifndef STOKE_CLI_SUMMARY_H
#define STOKE_CLI_SUMMARY_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "profile.h"

/* What stoke measured of a run itself, beyond the traces; 0 is unknown. */
struct run_measures {
    uint64_t wall_us;     /* 0: the longest process duration in the traces */
    uint64_t cpu_us;  /* CPU time of the command and its children */
    const pid_t *running; /* processes still running, their traces still being written */
    size_t nrunning;
};

/* Prints duration, samples, lost samples, the processes and the hottest
 * functions; with the CPU time known, the rate reached per CPU-second. */
void print_summary(FILE *out, const struct stoke_profile *p, const struct run_measures *run);

/* The ten hottest functions: self and total share of value 0, by self. */
void print_hottest(FILE *out, const struct stoke_profile *p);

#endif
