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
 * With --js the profile is a Node.js server's: the prefix is native (node's
 * event loop, then V8's JSEntry) and the synthetic frames are JavaScript
 * functions of the app, its dependencies and node core, frame 2k and 2k+1
 * being one function compiled by two V8 tiers (optimized, interpreted), so
 * the viewer's transforms (tiers merged, kinds hidden, native prefix
 * collapsed) have the whole tree to work on.
 *
 * Usage: html_synthetic NFRAMES OUT.html OUT.folded [--tabs | --js]
 * Never: part of stoke itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report_files.h"

#define BRANCHING 3
#define MAX_DEPTH 64

#define PREFIX_LEN 6
static const char *const prefix_names[PREFIX_LEN] = {
    "_start", "__libc_start_main", "main", "server::run()", "event_loop::poll_once()",
    "event_loop::dispatch(event&)",
};
static const char *const js_prefix_names[PREFIX_LEN] = {
    "_start", "__libc_start_main", "main", "node::Start", "uv_run", "Builtin:JSEntry",
};
static const enum stoke_frame_kind js_prefix_kinds[PREFIX_LEN] = {
    STOKE_KIND_PROGRAM, STOKE_KIND_LIBC, STOKE_KIND_PROGRAM, STOKE_KIND_PROGRAM,
    STOKE_KIND_PROGRAM, STOKE_KIND_RUNTIME,
};
static const enum stoke_frame_kind js_kinds[] = {
    STOKE_KIND_JS_APP, STOKE_KIND_JS_DEPENDENCY, STOKE_KIND_JS_CORE,
};

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

/* Function i / 2 of the app, a dependency or node core, tier by i's parity. */
static uint32_t synthetic_js_frame(struct stoke_profile *p, uint32_t i)
{
    char name[128], file[64];
    uint32_t fn = i / 2;
    enum stoke_frame_kind kind = js_kinds[fn % 3];
    uint32_t line = 10 + fn % 900, column = 3 + fn % 40;
    if (kind == STOKE_KIND_JS_CORE)
        snprintf(file, sizeof(file), "node:internal/mod_%u", fn % 50);
    else if (kind == STOKE_KIND_JS_DEPENDENCY)
        snprintf(file, sizeof(file), "/srv/app/node_modules/pkg_%u/index.js", fn % 200);
    else
        snprintf(file, sizeof(file), "/srv/app/lib/handler_%u.js", fn % 500);
    snprintf(name, sizeof(name), "handleRequest%u %s:%u:%u", fn, file, line, column);
    struct stoke_frame f = {.name = name, .module = "[js]", .file = file, .line = line,
                            .column = column, .kind = (uint8_t)kind,
                            .tier = i % 2 ? STOKE_TIER_INTERPRETED : STOKE_TIER_OPTIMIZED,
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

static int js; /* --js: a Node.js server's profile */

static void build(struct stoke_profile *p, uint32_t nframes, values_fn *values_of)
{
    uint32_t *ids = malloc(nframes * sizeof(uint32_t));
    uint32_t stack[MAX_DEPTH];
    size_t base = 0;
    stack[base++] = named_frame(p, "server (1000)", STOKE_KIND_PROCESS);
    for (size_t k = 0; k < PREFIX_LEN; k++)
        stack[base++] = js ? named_frame(p, js_prefix_names[k], js_prefix_kinds[k])
                           : named_frame(p, prefix_names[k], STOKE_KIND_PROGRAM);
    for (uint32_t i = 0; i < nframes; i++)
        ids[i] = js ? synthetic_js_frame(p, i) : synthetic_frame(p, i);
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

int main(int argc, char **argv)
{
    long nframes = argc >= 4 ? strtol(argv[1], NULL, 10) : 0;
    int with_tabs = argc == 5 && strcmp(argv[4], "--tabs") == 0;
    js = argc == 5 && strcmp(argv[4], "--js") == 0;
    if (nframes <= 0 || nframes > 50000000 || (argc == 5 && !with_tabs && !js) || argc > 5) {
        fprintf(stderr, "usage: html_synthetic NFRAMES OUT.html OUT.folded [--tabs | --js]\n");
        return 2;
    }
    static const char *const cpu_names[] = {"samples"}, *const cpu_units[] = {"count"};
    static const char *const heap_names[] = {"live_bytes", "live_objects", "alloc_bytes",
                                             "alloc_objects"};
    static const char *const heap_units[] = {"bytes", "count", "bytes", "count"};
    static const char *const diff_names[] = {"before", "after"};
    static const char *const diff_units[] = {"count", "count"};
    struct stoke_report_tab tabs[3] = {
        {"CPU", synthetic_profile((uint32_t)nframes, cpu_names, cpu_units, 1, cpu_values), 0},
    };
    ((struct stoke_profile *)tabs[0].profile)->period_ns = 1003009;
    size_t ntabs = 1;
    if (with_tabs) {
        tabs[ntabs++] = (struct stoke_report_tab){
            "heap", synthetic_profile((uint32_t)nframes, heap_names, heap_units, 4, heap_values), 0};
        tabs[ntabs++] = (struct stoke_report_tab){
            "diff", synthetic_profile((uint32_t)nframes, diff_names, diff_units, 2, diff_values), 1};
    }
    int rc = write_html_file(argv[2], tabs, ntabs, "synthetic profile") < 0 ||
             write_folded_file(argv[3], tabs[0].profile, 0) < 0;
    for (size_t t = 0; t < ntabs; t++)
        stoke_profile_free((struct stoke_profile *)tabs[t].profile);
    return rc;
}
