/*
 * load_and_write.c - see load_and_write.h.
 */
#include "load_and_write.h"

#include <stdio.h>
#include <stdlib.h>
#include "cpuprofile.h"
#include "folded.h"
#include "html.h"
#include "peek.h"
#include "pprof.h"
#include "profile.h"
#include "profile_diff.h"
#include "speedscope.h"
#include "trace_load.h"

#define FUZZ_CPUPROFILE_SAMPLES 1000000

static FILE *sink(void)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w"))) {
        perror("fuzz: /dev/null");
        exit(1);
    }
    return null;
}

static void write_differential(const struct stoke_profile *p)
{
    struct stoke_profile *diff = stoke_profile_diff(p, p, 0);
    struct stoke_html_tab tabs[] = {{"profile", p, 0}, {"diff", diff, 1}};
    stoke_write_folded_diff(sink(), diff);
    stoke_write_html_tabs(sink(), tabs, 2, "fuzz");
    stoke_profile_free(diff);
}

void write_every_format(const struct stoke_profile *p)
{
    for (size_t i = 0; i < p->nvalues; i++) {
        stoke_write_folded(sink(), p, i);
        stoke_write_speedscope(sink(), p, i, "fuzz");
    }
    stoke_write_html(sink(), p, "fuzz");
    stoke_write_pprof(sink(), p);
    /* one entry per sample by the format's design: only small profiles, so
     * every input stays quick (the writer refuses more than its maximum) */
    if (stoke_profile_total(p, 0) <= FUZZ_CPUPROFILE_SAMPLES)
        stoke_write_cpuprofile(sink(), p);
    write_differential(p);
}

void load_and_write(const char *trace_path)
{
    char err[512];
    struct stoke_trace_info info;
    stoke_peek_trace(trace_path, &info, err, sizeof err);
    for (int split_threads = 0; split_threads <= 1; split_threads++) {
        struct stoke_profile *p = stoke_profile_new();
        struct stoke_load_options opt = {.split_threads = split_threads};
        if (stoke_load_trace(p, trace_path, &opt, err, sizeof err) == 0)
            write_every_format(p);
        stoke_profile_free(p);
    }
}
