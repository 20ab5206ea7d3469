/*
 * stack_parts.h - a profile stack as other tools' formats want it: the
 * process it belongs to and its thread (the synthetic roots stoke puts on
 * top of every stack) apart from its code frames.
 */
#ifndef STOKE_STACK_PARTS_H
#define STOKE_STACK_PARTS_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

struct stack_parts {
    const struct stoke_process_summary *process; /* NULL: no known process */
    uint32_t root;        /* its process frame, UINT32_MAX: none */
    uint32_t thread;      /* its thread frame (stoke report --threads), UINT32_MAX: none */
    const uint32_t *code; /* the code frames, outermost caller first */
    size_t ncode;
};

void stack_parts_of(const struct stoke_profile *p, uint32_t stack, struct stack_parts *out);

/* The nanoseconds one sample of process s stands for (the profile's period
 * when s is NULL or has none). */
uint64_t sample_period_ns(const struct stoke_profile *p, const struct stoke_process_summary *s);

/* samples x period_ns: the time samples of one process stand for, in
 * nanoseconds; INT64_MAX when that does not fit (a damaged trace's period). */
int64_t samples_time_ns(int64_t samples, uint64_t period_ns);

/* 1 when the samples of p measure wall-clock time, not CPU time. */
int is_wall_clock(const struct stoke_profile *p);

#endif
