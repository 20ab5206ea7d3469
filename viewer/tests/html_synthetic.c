/*
 * html_synthetic.c - test and benchmark helper: builds a large synthetic CPU
 * profile with a chosen number of distinct frames and writes it as an HTML
 * report and as folded stacks, to time the viewer and compare sizes.
 *
 * The frames form a ternary call tree under a short common prefix (main, the
 * event loop, ...): frame i is called by frame (i - 1) / 3, so stacks are
 * about log3(N) + 8 deep, and every frame carries a few samples of its own.
 *
 * With --tabs the report has three tabs over the same tree: the CPU profile,
 * a heap profile (four values) and a differential one (before, after), to
 * time tab switches; the folded output stays the CPU profile's.
 *
 * Usage: html_synthetic NFRAMES OUT.html OUT.folded [--tabs]
 * Never: part of stoke itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "html.h"
#include "profile.h"

#define BRANCHING 3
#define MAX_DEPTH 64

static const char *const prefix_names[] = {
    "_start", "__libc_start_main", "main", "server::run()", "event_loop::poll_once()",
    "event_loop::dispatch(event&)",
};
#define PREFIX_LEN (sizeof(prefix_names) / sizeof(prefix_names[0]))

static const char *const modules[] = {"server", "libssl.so.3", "libc.so.6", "libz.so.1"};
static const enum stoke_frame_kind module_kinds[] = {
    STOKE_KIND_PROGRAM, STOKE_KIND_LIBRARY, STOKE_KIND_LIBC, STOKE_KIND_LIBRARY,
};

static uint32_t synthetic_frame(struct stoke_profile *p, uint32_t i)
{
    char name[128], file[64];
    unsigned m = (i * 2654435761u) >> 30; /* 0..3, spread */
    snprintf(name, sizeof(name), "ns%u::Handler<%u>::handle_request_%u(request const&, int)",
             i % 97, i % 13, i);
    snprintf(file, sizeof(file), "/src/server/handler_%u.cc", i % 500);
    struct stoke_frame f = {.name = name, .module = modules[m], .file = file,
                            .line = 10 + i % 900, .kind = (uint8_t)module_kinds[m],
                            .build_id = ""};
    return stoke_profile_frame(p, &f);
}

static uint32_t named_frame(struct stoke_profile *p, const char *name, enum stoke_frame_kind kind)
{
    struct stoke_frame f = {.name = name,
                            .module = kind == STOKE_KIND_PROCESS ? "" : "server",
                            .file = "", .kind = (uint8_t)kind, .build_id = ""};
    return stoke_profile_frame(p, &f);
}

/* The values of synthetic frame i, which has samples CPU samples. */
typedef void values_fn(uint32_t i, int64_t samples, int64_t *values);

static void cpu_values(uint32_t i, int64_t samples, int64_t *values)
{
    (void)i;
    values[0] = samples;
}

/* live_bytes, live_objects, alloc_bytes, alloc_objects: a third freed. */
static void heap_values(uint32_t i, int64_t samples, int64_t *values)
{
    int64_t live = i % 3 ? samples : 0;
    values[0] = live * 4096;
    values[1] = live;
    values[2] = samples * 3 * 4096;
    values[3] = samples * 3;
}

/* before, after: a fifth gone, the rest up or down a little. */
static void diff_values(uint32_t i, int64_t samples, int64_t *values)
{
    int64_t after = samples + (int64_t)(i % 7) - 3;
    values[0] = samples;
    values[1] = i % 5 == 0 || after < 0 ? 0 : after;
}

static void build(struct stoke_profile *p, uint32_t nframes, values_fn *values_of)
{
    uint32_t *ids = malloc(nframes * sizeof(uint32_t));
    uint32_t stack[MAX_DEPTH];
    size_t base = 0;
    stack[base++] = named_frame(p, "server (1000)", STOKE_KIND_PROCESS);
    for (size_t k = 0; k < PREFIX_LEN; k++)
        stack[base++] = named_frame(p, prefix_names[k], STOKE_KIND_PROGRAM);
    for (uint32_t i = 0; i < nframes; i++)
        ids[i] = synthetic_frame(p, i);
    for (uint32_t i = 0; i < nframes; i++) {
        uint32_t chain[MAX_DEPTH];
        size_t n = 0;
        for (uint32_t f = i;; f = (f - 1) / BRANCHING) {
            chain[n++] = ids[f];
            if (f == 0)
                break;
        }
        size_t len = base;
        while (n > 0)
            stack[len++] = chain[--n];
        int64_t values[STOKE_MAX_VALUES] = {0};
        values_of(i, 1 + (int64_t)((i * 40503u) % 7), values);
        stoke_profile_add(p, stack, len, values);
    }
    free(ids);
}

static struct stoke_profile *synthetic_profile(uint32_t nframes, const char *const *value_names,
                                               const char *const *value_units, size_t nvalues,
                                               values_fn *values_of)
{
    struct stoke_profile *p = stoke_profile_new();
    for (size_t v = 0; v < nvalues; v++)
        stoke_profile_set_value_type(p, v, value_names[v], value_units[v]);
    build(p, nframes, values_of);
    return p;
}

static int write_file(const char *path, const struct stoke_html_tab *tabs, size_t ntabs,
                      int html)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        return -1;
    }
    int rc = html ? stoke_write_html_tabs(out, tabs, ntabs, "synthetic profile")
                  : stoke_write_folded(out, tabs[0].profile, 0);
    if (fclose(out) != 0 || rc < 0) {
        perror(path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long nframes = argc >= 4 ? strtol(argv[1], NULL, 10) : 0;
    int with_tabs = argc == 5 && strcmp(argv[4], "--tabs") == 0;
    if (nframes <= 0 || nframes > 50000000 || (argc == 5 && !with_tabs) || argc > 5) {
        fprintf(stderr, "usage: html_synthetic NFRAMES OUT.html OUT.folded [--tabs]\n");
        return 2;
    }
    static const char *const cpu_names[] = {"samples"}, *const cpu_units[] = {"count"};
    static const char *const heap_names[] = {"live_bytes", "live_objects", "alloc_bytes",
                                             "alloc_objects"};
    static const char *const heap_units[] = {"bytes", "count", "bytes", "count"};
    static const char *const diff_names[] = {"before", "after"};
    static const char *const diff_units[] = {"count", "count"};
    struct stoke_html_tab tabs[3] = {
        {"CPU", synthetic_profile((uint32_t)nframes, cpu_names, cpu_units, 1, cpu_values), 0},
    };
    ((struct stoke_profile *)tabs[0].profile)->period_ns = 1003009;
    size_t ntabs = 1;
    if (with_tabs) {
        tabs[ntabs++] = (struct stoke_html_tab){
            "heap", synthetic_profile((uint32_t)nframes, heap_names, heap_units, 4, heap_values), 0};
        tabs[ntabs++] = (struct stoke_html_tab){
            "diff", synthetic_profile((uint32_t)nframes, diff_names, diff_units, 2, diff_values), 1};
    }
    int rc = write_file(argv[2], tabs, ntabs, 1) < 0 || write_file(argv[3], tabs, ntabs, 0) < 0;
    for (size_t t = 0; t < ntabs; t++)
        stoke_profile_free((struct stoke_profile *)tabs[t].profile);
    return rc;
}
