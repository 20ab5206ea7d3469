/*
 * load_and_write.c - see load_and_write.h.
 */
#include "load_and_write.h"

#include <stdio.h>
#include <stdlib.h>
#include "heap_timeline.h"
#include "peek.h"
#include "profile.h"
#include "profile_diff.h"
#include "registry.h"
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
    struct stoke_profile *diff = stoke_profile_diff(p, p, 0, STOKE_DIFF_SHARES);
    const struct stoke_report_tab tabs[] = {{"profile", p, 0}, {"diff", diff, 1}};
    const struct stoke_report r = {.tabs = tabs, .ntabs = 2, .title = "fuzz"};
    stoke_output_formats[STOKE_OUTPUT_FOLDED].write(sink(), &r);
    stoke_output_formats[STOKE_OUTPUT_HTML].write(sink(), &r);
    stoke_profile_free(diff);
}

/* One entry per sample by the .cpuprofile's design: only small profiles,
 * so every input stays quick (the writer refuses more than its maximum). */
static int worth_writing(int format, const struct stoke_profile *p)
{
    return format != STOKE_OUTPUT_CPUPROFILE ||
           stoke_profile_total(p, 0) <= FUZZ_CPUPROFILE_SAMPLES;
}

void write_every_format(const struct stoke_profile *p)
{
    struct stoke_report_tab tab;
    for (size_t i = 0; i < p->nvalues; i++) {
        struct stoke_report r = stoke_report_of(p, i, &tab);
        r.title = "fuzz";
        for (int format = 0; format < STOKE_NOUTPUTS; format++)
            if (worth_writing(format, p))
                stoke_output_formats[format].write(sink(), &r);
    }
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
    struct stoke_profile *p = stoke_profile_new();
    const struct stoke_load_options timeline = {.heap_timeline = 1};
    if (stoke_load_trace(p, trace_path, &timeline, err, sizeof err) == 0) {
        stoke_heap_live_at(p, UINT64_MAX);
        write_every_format(p);
    }
    stoke_profile_free(p);
}
