/*
 * html_node.c - test helper: writes a report of a Node.js server with
 * values known by construction, and its folded stacks, so tests can check
 * what the page makes of JavaScript: kinds, V8 tiers, kind filters and the
 * collapsed native prefix. Tab 0 is the Node.js CPU profile below; tab 1 a
 * small native profile (no JavaScript: the page shows no JavaScript bar).
 *
 * Process "node (4242)", threads "main (4242)" and "V8 DefaultWorke
 * (4243)", 430 samples of 1 ms. Native prefix A is _start ...
 * uv__io_poll (6 frames), then Builtin:JSEntry (V8 runtime):
 *
 *   main thread (380)
 *     A;JSEntry;emit;handle;renderTree*               50
 *     A;JSEntry;emit;handle;renderTree*;LoadIC        16
 *     A;JSEntry;emit;handle;renderTree*;CollectGarbage 15 (GC)
 *     A;JSEntry;emit;handle;renderTree^               12
 *     A;JSEntry;emit;handle;renderTree~                3
 *     A;JSEntry;emit;handle;renderTree~;LoadIC         4
 *     A;JSEntry;emit;handle                           10
 *     A;JSEntry;emit;onRequest                         5
 *     A;JSEntry;emit;onRequest;node::fs::Read;read    20
 *     A;epoll_wait                                   200 (idle)
 *     _start;__libc_start_main;main;node::Start;node::LoadEnvironment;
 *       JSEntry;(anonymous)                           40
 *     _start;__libc_start_main;main                    5
 *   worker thread (50)
 *     start_thread;WorkerThread::Run;ScavengerCollector::CollectGarbage 50
 *
 * renderTree (app) ran optimized 81, baseline 12, interpreted 7: 100;
 * emit is node core, handle a dependency, onRequest and (anonymous) app.
 *
 * Writes OUT.html, OUT.folded (stoke_write_folded of tab 0) and
 * OUT.native.folded (tab 1).
 *
 * Usage: html_node OUT.html OUT.folded OUT.native.folded
 * Never: part of stoke itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "report_files.h"

#define MAX_STACK 24

/* A frame of the profile, named by key in the stacks below. */
struct frame_spec {
    const char *key, *name, *module, *file;
    uint32_t line, column;
    uint8_t kind, tier;
};

#define TREE_JS "/srv/app/lib/tree.js"
#define APP_JS "/srv/app/lib/app.js"
#define LAYER_JS "/srv/app/node_modules/express/lib/router/layer.js"

static const struct frame_spec frames[] = {
    {"node", "node (4242)", "", "", 0, 0, STOKE_KIND_PROCESS, 0},
    {"main_thread", "main (4242)", "", "", 0, 0, STOKE_KIND_THREAD, 0},
    {"worker", "V8 DefaultWorke (4243)", "", "", 0, 0, STOKE_KIND_THREAD, 0},
    {"_start", "_start", "node", "", 0, 0, STOKE_KIND_PROGRAM, 0},
    {"libc_start", "__libc_start_main", "libc.so.6", "", 0, 0, STOKE_KIND_LIBC, 0},
    {"main", "main", "node", "", 0, 0, STOKE_KIND_PROGRAM, 0},
    {"node_start", "node::Start", "node", "", 0, 0, STOKE_KIND_PROGRAM, 0},
    {"uv_run", "uv_run", "node", "", 0, 0, STOKE_KIND_PROGRAM, 0},
    {"io_poll", "uv__io_poll", "node", "", 0, 0, STOKE_KIND_PROGRAM, 0},
    {"load_env", "node::LoadEnvironment", "node", "", 0, 0, STOKE_KIND_PROGRAM, 0},
    {"js_entry", "Builtin:JSEntry", "node", "", 0, 0, STOKE_KIND_RUNTIME, 0},
    {"load_ic", "Builtin:LoadIC", "node", "", 0, 0, STOKE_KIND_RUNTIME, 0},
    {"gc", "v8::internal::Heap::CollectGarbage", "node", "", 0, 0, STOKE_KIND_GC, 0},
    {"fs_read", "node::fs::Read", "node", "", 0, 0, STOKE_KIND_PROGRAM, 0},
    {"read", "read", "libc.so.6", "", 0, 0, STOKE_KIND_LIBC, 0},
    {"epoll", "epoll_wait", "libc.so.6", "", 0, 0, STOKE_KIND_IDLE, 0},
    {"start_thread", "start_thread", "libc.so.6", "", 0, 0, STOKE_KIND_LIBC, 0},
    {"worker_run", "v8::platform::DefaultWorkerThreadsTaskRunner::WorkerThread::Run", "node", "",
     0, 0, STOKE_KIND_PROGRAM, 0},
    {"scavenge", "v8::internal::ScavengerCollector::CollectGarbage", "node", "", 0, 0,
     STOKE_KIND_GC, 0},
    {"emit", "emit node:events:517:28", "[js]", "node:events", 517, 28, STOKE_KIND_JS_CORE,
     STOKE_TIER_OPTIMIZED},
    {"handle", "handle express/lib/router/layer.js:152:42", "[js]", LAYER_JS, 152, 42,
     STOKE_KIND_JS_DEPENDENCY, STOKE_TIER_BASELINE},
    {"render*", "renderTree lib/tree.js:20:15", "[js]", TREE_JS, 20, 15, STOKE_KIND_JS_APP,
     STOKE_TIER_OPTIMIZED},
    {"render^", "renderTree lib/tree.js:20:15", "[js]", TREE_JS, 20, 15, STOKE_KIND_JS_APP,
     STOKE_TIER_BASELINE},
    {"render~", "renderTree lib/tree.js:20:15", "[js]", TREE_JS, 20, 15, STOKE_KIND_JS_APP,
     STOKE_TIER_INTERPRETED},
    {"on_request", "onRequest lib/app.js:30:5", "[js]", APP_JS, 30, 5, STOKE_KIND_JS_APP,
     STOKE_TIER_OPTIMIZED},
    {"anonymous", "(anonymous) lib/app.js:15:18", "[js]", APP_JS, 15, 18, STOKE_KIND_JS_APP,
     STOKE_TIER_INTERPRETED},
};

#define A "node;main_thread;_start;libc_start;main;node_start;uv_run;io_poll"
#define HANDLE A ";js_entry;emit;handle"

static const struct {
    const char *path;
    int64_t samples;
} node_stacks[] = {
    {HANDLE ";render*", 50},
    {HANDLE ";render*;load_ic", 16},
    {HANDLE ";render*;gc", 15},
    {HANDLE ";render^", 12},
    {HANDLE ";render~", 3},
    {HANDLE ";render~;load_ic", 4},
    {HANDLE, 10},
    {A ";js_entry;emit;on_request", 5},
    {A ";js_entry;emit;on_request;fs_read;read", 20},
    {A ";epoll", 200},
    {"node;main_thread;_start;libc_start;main;node_start;load_env;js_entry;anonymous", 40},
    {"node;main_thread;_start;libc_start;main", 5},
    {"node;worker;start_thread;worker_run;scavenge", 50},
};

static const struct {
    const char *path;
    int64_t samples;
} native_stacks[] = {
    {"node;main_thread;_start;libc_start;main;fs_read;read", 30},
    {"node;main_thread;_start;libc_start;main", 10},
};

static uint32_t frame_of(struct stoke_profile *p, const char *key)
{
    for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
        const struct frame_spec *s = &frames[i];
        if (strcmp(s->key, key) == 0) {
            struct stoke_frame f = {.name = s->name, .module = s->module, .file = s->file,
                                    .line = s->line, .column = s->column, .kind = s->kind,
                                    .tier = s->tier, .build_id = ""};
            return stoke_profile_frame(p, &f);
        }
    }
    fprintf(stderr, "html_node: no frame %s\n", key);
    exit(1);
}

/* Adds samples to the stack of frame keys "a;b;c". */
static void add(struct stoke_profile *p, const char *path, int64_t samples)
{
    uint32_t stack[MAX_STACK];
    size_t n = 0;
    char copy[512];
    snprintf(copy, sizeof(copy), "%s", path);
    for (char *save = NULL, *key = strtok_r(copy, ";", &save); key && n < MAX_STACK;
         key = strtok_r(NULL, ";", &save))
        stack[n++] = frame_of(p, key);
    int64_t values[STOKE_MAX_VALUES] = {samples};
    stoke_profile_add(p, stack, n, values);
}

static struct stoke_profile *profile_of(uint64_t samples)
{
    struct stoke_profile *p = stoke_profile_new();
    p->period_ns = 1000000;
    struct stoke_process_summary *s = stoke_profile_add_process(p);
    s->pid = 4242;
    s->comm = strdup("node");
    s->samples = samples;
    return p;
}

static struct stoke_profile *node_profile(void)
{
    struct stoke_profile *p = profile_of(430);
    for (size_t i = 0; i < sizeof(node_stacks) / sizeof(node_stacks[0]); i++)
        add(p, node_stacks[i].path, node_stacks[i].samples);
    return p;
}

static struct stoke_profile *native_profile(void)
{
    struct stoke_profile *p = profile_of(40);
    for (size_t i = 0; i < sizeof(native_stacks) / sizeof(native_stacks[0]); i++)
        add(p, native_stacks[i].path, native_stacks[i].samples);
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: html_node OUT.html OUT.folded OUT.native.folded\n");
        return 2;
    }
    const struct stoke_report_tab tabs[] = {
        {"node CPU", node_profile(), 0},
        {"native CPU", native_profile(), 0},
    };
    int rc = write_html_file(argv[1], tabs, 2, "node server") < 0 ||
             write_folded_file(argv[2], tabs[0].profile, 0) < 0 ||
             write_folded_file(argv[3], tabs[1].profile, 0) < 0;
    for (size_t t = 0; t < 2; t++)
        stoke_profile_free((struct stoke_profile *)tabs[t].profile);
    return rc;
}
