/*
 * sample_times.c - when each CPU sample was taken; see sample_times.h.
 *
 * Owns: the sample list's growth, the recording's start and end, and
 * windows of time (totals and sites rebuilt from the samples in the window).
 * Never: reads files, or formats output.
 */
#include "sample_times.h"

#include <stdlib.h>
#include "alloc.h"
#include "code_sites.h"

/* Adds the sample's weight to its site, when it has one. */
static void add_to_site(struct stoke_profile *p, const struct stoke_sample *s)
{
    int64_t values[STOKE_MAX_VALUES] = {(int64_t)s->weight};
    if (s->site)
        stoke_site_add(p, s->site - 1, values);
}

void stoke_profile_add_sample(struct stoke_profile *p, const struct stoke_sample *s)
{
    struct stoke_sample_list *l = &p->samples;
    l->at = stoke_grow(l->at, &l->cap, l->n + 1, sizeof *l->at);
    l->at[l->n++] = *s;
    p->rows[s->stack].values[0] += s->weight;
    add_to_site(p, s);
}

uint64_t stoke_profile_start_ns(const struct stoke_profile *p)
{
    uint64_t start = 0;
    for (size_t i = 0; i < p->nprocs; i++) {
        uint64_t t = p->procs[i].start_realtime_ns;
        if (t && (!start || t < start))
            start = t;
    }
    for (size_t i = 0; i < p->samples.n; i++) /* a process that did not say */
        if (!start || p->samples.at[i].time_ns < start)
            start = p->samples.at[i].time_ns;
    return start;
}

uint64_t stoke_profile_end_ns(const struct stoke_profile *p)
{
    uint64_t end = 0;
    for (size_t i = 0; i < p->samples.n; i++)
        if (p->samples.at[i].time_ns > end)
            end = p->samples.at[i].time_ns;
    for (size_t i = 0; i < p->nprocs; i++) {
        const struct stoke_process_summary *s = &p->procs[i];
        uint64_t ended = s->start_realtime_ns + s->duration_us * 1000;
        if (s->start_realtime_ns && ended > end)
            end = ended;
    }
    return end;
}

/* Each process's sample count and CPU time from the samples kept: a
 * process measured on the wall clock has no CPU time (cpu_ns 0) and keeps
 * none. */
static void recount_processes(struct stoke_profile *p)
{
    uint64_t *weights = stoke_xcalloc(p->nprocs ? p->nprocs : 1, sizeof *weights);
    for (size_t i = 0; i < p->nprocs; i++)
        p->procs[i].samples = 0;
    for (size_t i = 0; i < p->samples.n; i++) {
        const struct stoke_sample *s = &p->samples.at[i];
        p->procs[s->process].samples++;
        weights[s->process] += s->weight;
    }
    for (size_t i = 0; i < p->nprocs; i++)
        if (p->procs[i].cpu_ns)
            p->procs[i].cpu_ns = weights[i] * p->procs[i].period_ns;
    free(weights);
}

void stoke_profile_keep_samples(struct stoke_profile *p,
                                int (*keep)(const struct stoke_sample *s, size_t i, void *ctx),
                                void *ctx)
{
    struct stoke_sample_list *l = &p->samples;
    for (size_t r = 0; r < p->nrows; r++)
        p->rows[r].values[0] = 0;
    stoke_sites_clear_values(p);
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        struct stoke_sample s = l->at[i];
        if (!keep(&s, i, ctx))
            continue;
        l->at[kept++] = s;
        p->rows[s.stack].values[0] += s.weight;
        add_to_site(p, &s);
    }
    l->n = kept;
    recount_processes(p);
}

struct window {
    uint64_t from_ns, until_ns;
};

static int in_window(const struct stoke_sample *s, size_t i, void *ctx)
{
    const struct window *w = ctx;
    (void)i;
    return s->time_ns >= w->from_ns && s->time_ns < w->until_ns;
}

void stoke_profile_keep_window(struct stoke_profile *p, uint64_t from_ns, uint64_t until_ns)
{
    struct window w = {from_ns, until_ns};
    stoke_profile_keep_samples(p, in_window, &w);
}

static int by_time(const void *a, const void *b)
{
    const struct stoke_sample *x = a, *y = b;
    if (x->time_ns != y->time_ns)
        return x->time_ns < y->time_ns ? -1 : 1;
    if (x->process != y->process) /* the same moment: any fixed order */
        return x->process < y->process ? -1 : 1;
    return (x->stack > y->stack) - (x->stack < y->stack);
}

void stoke_profile_sort_samples(struct stoke_profile *p)
{
    qsort(p->samples.at, p->samples.n, sizeof *p->samples.at, by_time);
}
