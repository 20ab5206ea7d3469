/*
 * test_heap_model.c - unit test of the offline heap side (read/, model/):
 * loading heap snapshots that tests/tools/make_trace writes (the four heap
 * values exactly, the HEAP record in the process summary, every frame of an
 * allocation stack symbolized as a return address), the peek at a file's
 * kind, the refusal to mix CPU traces and snapshots in one profile, the
 * diff model and the differential folded writer, and the live heap over
 * time made the growth of its whole recording.
 *
 * Never: runs the agent or the stoke command (heap_cli_test.sh does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "folded_text.h"
#include "heap_timeline.h"
#include "peek.h"
#include "profile_diff.h"
#include "scratch.h"
#include "stoke_format.h"
#include "trace_load.h"

#define MiB (1024 * 1024)

/* The names of make_trace's heap snapshot code, 0x100 bytes each. */
static void write_perf_map(void)
{
    static const char *const names[] = {"main",   "run",    "leak_a", "churn_b",
                                        "keep_c", "late_d", "early_e"};
    char path[256];
    scratch_path(path, sizeof path, "perf-4242.map");
    FILE *f = fopen(path, "w");
    for (unsigned i = 0; i < 7; i++)
        fprintf(f, "%llx 100 %s\n", 0x7f0000010000ull + 0x100ull * i, names[i]);
    fclose(f);
}

/* Writes scratch/name with make_trace KIND name EXTRA. */
static void make(const char *kind, const char *name, const char *extra, char *path, size_t len)
{
    char cmd[1024];
    scratch_path(path, len, name);
    snprintf(cmd, sizeof cmd, "'%s' %s '%s' %s", MAKE_TRACE, kind, path, extra);
    free(run_capture(cmd));
}

static struct stoke_profile *load_one(const char *path)
{
    struct stoke_profile *p = stoke_profile_new();
    char err[512];
    int rc = stoke_load_trace(p, path, NULL, err, sizeof err);
    if (rc)
        fprintf(stderr, "load failed: %s\n", err);
    CHECK(rc == 0);
    return p;
}

static char snap1[256], snap2[256], cpu[256];

static void test_values(void)
{
    struct stoke_profile *p = load_one(snap2);
    CHECK(p->kind == STOKE_PROFILE_HEAP);
    CHECK(p->nvalues == 4);
    CHECK_STR(p->value_names[STOKE_HEAP_LIVE_BYTES], "live_bytes");
    CHECK_STR(p->value_units[STOKE_HEAP_LIVE_BYTES], "bytes");
    CHECK_STR(p->value_names[STOKE_HEAP_LIVE_OBJECTS], "live_objects");
    CHECK_STR(p->value_units[STOKE_HEAP_LIVE_OBJECTS], "count");
    CHECK_STR(p->value_names[STOKE_HEAP_ALLOC_BYTES], "alloc_bytes");
    CHECK_STR(p->value_names[STOKE_HEAP_ALLOC_OBJECTS], "alloc_objects");
    CHECK(stoke_profile_total(p, STOKE_HEAP_LIVE_BYTES) == 2 * MiB + 4096 + 30 * MiB + MiB / 2);
    CHECK(stoke_profile_total(p, STOKE_HEAP_ALLOC_OBJECTS) == 32 + 102400 + 30 + 8);
    char *live = folded_text(p, STOKE_HEAP_LIVE_BYTES, 0);
    /* keep_c's leaf return address is the first byte of late_d: offset - 1
     * names keep_c, so the first frame was taken as a return address too */
    CHECK_STR(live, "demo (4242);main;keep_c 31457280\n"
                    "demo (4242);main;run;churn_b 4096\n"
                    "demo (4242);main;run;late_d 524288\n"
                    "demo (4242);main;run;leak_a 2097152\n");
    free(live);
    CHECK(p->nprocs == 1);
    const struct stoke_process_summary *s = &p->procs[0];
    CHECK(s->pid == 4242);
    CHECK(s->heap.sequence == 2);
    CHECK(s->heap.trigger == STOKE_HEAP_EXIT);
    CHECK(s->heap.sample_interval == 524288);
    CHECK(s->heap.untracked == 3);
    CHECK(s->heap.live_bytes == (uint64_t)stoke_profile_total(p, STOKE_HEAP_LIVE_BYTES));
    CHECK(s->samples == 0 && s->cpu_ns == 0);
    stoke_profile_free(p);
}

static void test_peek(void)
{
    struct stoke_trace_info info;
    char err[512];
    CHECK(stoke_peek_trace(snap1, &info, err, sizeof err) == 0);
    CHECK(info.kind == STOKE_PROFILE_HEAP);
    CHECK(info.pid == 4242);
    CHECK(info.heap.sequence == 1 && info.heap.trigger == STOKE_HEAP_SIGNAL);
    CHECK(stoke_peek_trace(cpu, &info, err, sizeof err) == 0);
    CHECK(info.kind == STOKE_PROFILE_CPU);
    CHECK(info.pid == 4242);
    CHECK(stoke_peek_trace("/nonexistent/x.stoke", &info, err, sizeof err) == -1);
    CHECK(strstr(err, "/nonexistent/x.stoke") != NULL);
}

/* A profile keeps its kind: the other kind is refused, nothing added. */
static void test_no_mixing(void)
{
    char err[512];
    struct stoke_profile *p = load_one(cpu);
    int64_t samples = stoke_profile_total(p, 0);
    stderr_begin();
    int rc = stoke_load_trace(p, snap1, NULL, err, sizeof err);
    free(stderr_end());
    CHECK(rc == -1);
    CHECK(strstr(err, "is a heap snapshot and cannot join CPU traces") != NULL);
    CHECK(p->kind == STOKE_PROFILE_CPU && p->nvalues == 1 && p->nprocs == 1);
    CHECK(stoke_profile_total(p, 0) == samples);
    stoke_profile_free(p);

    p = load_one(snap1);
    stderr_begin();
    rc = stoke_load_trace(p, cpu, NULL, err, sizeof err);
    free(stderr_end());
    CHECK(rc == -1);
    CHECK(strstr(err, "is a CPU trace and cannot join heap snapshots") != NULL);
    CHECK(p->kind == STOKE_PROFILE_HEAP && p->nvalues == 4 && p->nprocs == 1);
    CHECK(stoke_profile_total(p, STOKE_HEAP_LIVE_BYTES) == MiB + 4096 + 30 * MiB + 100);
    /* snapshots of one kind do join */
    CHECK(stoke_load_trace(p, snap2, NULL, err, sizeof err) == 0);
    CHECK(p->nprocs == 2);
    stoke_profile_free(p);
}

static void test_diff(void)
{
    struct stoke_profile *a = load_one(snap1), *b = load_one(snap2);
    struct stoke_profile *d = stoke_profile_diff(a, b, STOKE_HEAP_LIVE_BYTES, STOKE_DIFF_ABSOLUTE);
    CHECK(d->nvalues == 2);
    CHECK_STR(d->value_names[0], "before");
    CHECK_STR(d->value_names[1], "after");
    CHECK_STR(d->value_units[1], "bytes");
    CHECK(d->kind == STOKE_PROFILE_HEAP);
    CHECK(d->nprocs == 2);
    char *text = folded_text(d, 0, 1);
    CHECK_STR(text, "demo;main;early_e 100 0\n"
                    "demo;main;keep_c 31457280 31457280\n"
                    "demo;main;run;churn_b 4096 4096\n"
                    "demo;main;run;late_d 0 524288\n"
                    "demo;main;run;leak_a 1048576 2097152\n");
    free(text);
    stoke_profile_free(d);
    d = stoke_profile_diff(a, b, STOKE_HEAP_ALLOC_OBJECTS, STOKE_DIFF_ABSOLUTE);
    text = folded_text(d, 0, 1);
    CHECK_STR(text, "demo;main;early_e 1 0\n"
                    "demo;main;keep_c 30 30\n"
                    "demo;main;run;churn_b 51200 102400\n"
                    "demo;main;run;late_d 0 8\n"
                    "demo;main;run;leak_a 16 32\n");
    free(text);
    stoke_profile_free(d);
    stoke_profile_free(a);
    stoke_profile_free(b);
}

/* A heap profile of two allocation stacks and their changes: grow_a +100
 * then +50, churn_b +30 then -30; moments at each change. */
static struct stoke_profile *heap_over_time(void)
{
    struct stoke_profile *p = stoke_profile_new();
    p->kind = STOKE_PROFILE_HEAP;
    stoke_profile_set_value_type(p, STOKE_HEAP_LIVE_BYTES, "live_bytes", "bytes");
    const struct stoke_frame main_f = {.name = "main", .module = "", .file = "", .build_id = ""};
    struct stoke_frame leaf = main_f;
    uint32_t frames[2] = {stoke_profile_frame(p, &main_f), 0};
    leaf.name = "grow_a";
    frames[1] = stoke_profile_frame(p, &leaf);
    uint32_t a = stoke_profile_stack(p, frames, 2);
    leaf.name = "churn_b";
    frames[1] = stoke_profile_frame(p, &leaf);
    uint32_t b = stoke_profile_stack(p, frames, 2);
    const struct stoke_heap_change changes[] = {
        {1000, a, 100, 1}, {1000, b, 30, 1}, {2000, a, 50, 1}, {3000, b, -30, -1}};
    for (size_t i = 0; i < 4; i++) {
        stoke_profile_add_heap_change(p, &changes[i]);
        const struct stoke_heap_moment m = {.time_ns = changes[i].time_ns};
        stoke_profile_add_heap_moment(p, &m);
    }
    return p;
}

static void test_growth_whole(void)
{
    struct stoke_profile *p = heap_over_time();
    stoke_heap_growth_whole(p);
    CHECK(p->nvalues == 2);
    CHECK_STR(p->value_names[0], "before");
    CHECK_STR(p->value_names[1], "after");
    CHECK_STR(p->value_units[1], "bytes");
    CHECK(p->heap_timeline.nchanges == 4 && p->heap_timeline.nmoments == 4); /* kept */
    char *text = folded_text(p, 0, 1);
    CHECK_STR(text, "main;grow_a 0 150\n");
    free(text);
    stoke_profile_free(p);
}

int main(void)
{
    scratch_init();
    write_perf_map();
    make("heap", "demo.4242.heap.1.20240101-000001.stoke", "1 signal", snap1, sizeof snap1);
    make("heap", "demo.4242.heap.2.20240101-000002.stoke", "2 exit 3", snap2, sizeof snap2);
    make("valid", "demo.4242.stoke", "", cpu, sizeof cpu);
    test_values();
    test_peek();
    test_no_mixing();
    test_diff();
    test_growth_whole();
    scratch_cleanup();
    return check_report("test_heap_model");
}
