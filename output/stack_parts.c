/*
 * stack_parts.c - splits a profile stack into its process, thread and code
 * frames; see stack_parts.h. Never changes the profile.
 */
#include "stack_parts.h"

#include "stoke_format.h"

static const struct stoke_process_summary *process_of_root(const struct stoke_profile *p,
                                                           uint32_t root)
{
    for (size_t i = 0; i < p->nprocs; i++)
        if (p->procs[i].root_frame == root)
            return &p->procs[i];
    return NULL;
}

void stack_parts_of(const struct stoke_profile *p, uint32_t stack, struct stack_parts *out)
{
    const uint32_t *frames = p->stack_frames + p->stack_start[stack];
    size_t n = p->stack_len[stack], i = 0;
    *out = (struct stack_parts){.root = UINT32_MAX, .thread = UINT32_MAX};
    if (i < n && p->frames[frames[i]].kind == STOKE_KIND_PROCESS) {
        out->root = frames[i++];
        out->process = process_of_root(p, out->root);
    }
    if (i < n && p->frames[frames[i]].kind == STOKE_KIND_THREAD)
        out->thread = frames[i++];
    out->code = frames + i;
    out->ncode = n - i;
}

uint64_t sample_period_ns(const struct stoke_profile *p, const struct stoke_process_summary *s)
{
    return s && s->period_ns ? s->period_ns : p->period_ns;
}

int64_t samples_time_ns(int64_t samples, uint64_t period_ns)
{
    int64_t ns;
    if (period_ns > INT64_MAX || __builtin_mul_overflow(samples, (int64_t)period_ns, &ns))
        return INT64_MAX;
    return ns;
}

int is_wall_clock(const struct stoke_profile *p)
{
    return p->kind == STOKE_PROFILE_CPU && p->nprocs && p->procs[0].clock == STOKE_CLOCK_WALL;
}
