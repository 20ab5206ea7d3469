/*
 * recording_report.c - loads every profile of a recording (the CPU traces
 * as one, each heap snapshot on its own, and its JavaScript half beside
 * it), writes them as one HTML report and prints the summary; see
 * recording_report.h. A recording of several processes gets two CPU tabs:
 * merged by command first, then by process. Owns the tabs' order and
 * names. Never formats profile data itself: the viewer and the summaries
 * do.
 */
#include "recording_report.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diff_summary.h"
#include "heap_summary.h"
#include "js_heap_diff.h"
#include "heap_growth.h"
#include "heap_timeline.h"
#include "js_heap_load.h"
#include "js_heap_terminal.h"
#include "measure.h"
#include "outputs.h"
#include "profile_diff.h"
#include "recording_names.h"
#include "stoke_format.h"

#define LARGEST_STACKS_SHOWN 5
#define TAB_NAME_MAX 160

#define JS_CONSTRUCTORS_SHOWN 5

/* A heap snapshot's profile: a native one, its JavaScript half (js), or a
 * JavaScript heap snapshot alone (snapshot NULL, named by js_alone). */
struct heap_view {
    struct stoke_profile *profile;
    const struct snapshot *snapshot;
    int js;
    const char *js_alone;
    const char *comm;                   /* the process's name, "" when unknown */
    struct js_snapshot_summary summary; /* of a JavaScript one */
};

/* The profiles of a recording: CPU (NULL without CPU traces) with a stack
 * root per process, the same merged by command (NULL unless it has
 * several processes), then the snapshots that could be loaded, in the
 * recording's order, each native one followed by its JavaScript half. */
struct profiles {
    struct stoke_profile *cpu;
    struct stoke_profile *cpu_merged;
    struct heap_view *heap;
    size_t nheap;
    int has_js;
    struct stoke_profile *grew_native; /* differential: live bytes from load start to end */
    struct stoke_profile *grew_window; /* the same from --from to --until (heap over time) */
    struct stoke_profile *grew_range;  /* the heap over time, whole, for any range the
                                        * report's timeline picks */
    struct stoke_profile *grew_js;     /* the same of the JavaScript heap */
    struct stoke_js_heap_diff *grew_js_classes;
};

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void add_native_view(struct profiles *out, const struct snapshot *s)
{
    char err[PATH_MAX + 256];
    struct stoke_profile *p = load_snapshots(&s, 1, err, sizeof err);
    if (p)
        out->heap[out->nheap++] =
            (struct heap_view){.profile = p, .snapshot = s, .comm = p->procs[0].comm};
    else
        fprintf(stderr, "stoke: %s\n", err);
}

static void add_js_view(struct profiles *out, const struct snapshot *s, const char *path)
{
    char err[PATH_MAX + 256];
    const struct heap_view *native = out->nheap ? &out->heap[out->nheap - 1] : NULL;
    struct heap_view v = {.profile = stoke_profile_new(), .snapshot = s, .js = 1,
                          .js_alone = s ? NULL : path,
                          .comm = s && native && native->snapshot == s ? native->comm : ""};
    if (js_snapshot_read(path, v.profile, &v.summary, err, sizeof err) == 0) {
        out->heap[out->nheap++] = v;
        return;
    }
    fprintf(stderr, "stoke: %s\n", err);
    stoke_profile_free(v.profile);
}

static void load_profiles(const struct recording *r, const struct stoke_load_options *opt,
                          struct profiles *out)
{
    char err[PATH_MAX + 256];
    *out = (struct profiles){0};
    out->cpu = r->ncpu ? load_cpu_profile(r, opt, err, sizeof err) : NULL;
    if (r->ncpu && !out->cpu)
        fprintf(stderr, "stoke: %s\n", err);
    int heap_over_time = out->cpu && has_heap_timeline(r);
    if (heap_over_time && (out->grew_range = load_heap_timeline(r, err, sizeof err)))
        stoke_heap_growth_whole(out->grew_range);
    if (heap_over_time && r->window &&
        !(out->grew_window = load_heap_growth(r, STOKE_HEAP_LIVE_BYTES, err, sizeof err)))
        fprintf(stderr, "stoke: %s\n", err);
    if (out->cpu && out->cpu->nprocs > 1) {
        struct stoke_load_options merged = *opt;
        merged.merge_processes = 1;
        out->cpu_merged = load_cpu_profile(r, &merged, err, sizeof err);
    }
    size_t most = 2 * r->nsnapshots + r->njs_alone;
    out->heap = stoke_xcalloc(most ? most : 1, sizeof *out->heap);
    out->has_js = has_js_snapshots(r);
    for (size_t i = 0; i < r->nsnapshots; i++) {
        add_native_view(out, &r->snapshots[i]);
        if (r->snapshots[i].js_path)
            add_js_view(out, &r->snapshots[i], r->snapshots[i].js_path);
    }
    for (size_t i = 0; i < r->njs_alone; i++)
        add_js_view(out, NULL, r->js_alone[i]);
}

/* The view of the native snapshot named name (in the recording's
 * directory), or NULL. */
static const struct heap_view *native_view_named(const struct profiles *p, const char *name)
{
    for (size_t i = 0; i < p->nheap; i++) {
        const struct heap_view *v = &p->heap[i];
        if (v->snapshot && !v->js && !strcmp(base_name(v->snapshot->path), name))
            return v;
    }
    return NULL;
}

/* What grew in each heap between the snapshots taken as the load started
 * and ended. */
static void load_growth(struct profiles *p, const struct load_marks *marks)
{
    const struct heap_view *start = native_view_named(p, marks->start_snapshot);
    const struct heap_view *end = native_view_named(p, marks->end_snapshot);
    if (!start || !end)
        return;
    p->grew_native = stoke_profile_diff(start->profile, end->profile, STOKE_HEAP_LIVE_BYTES,
                                        STOKE_DIFF_ABSOLUTE);
    const char *js_start = start->snapshot->js_path, *js_end = end->snapshot->js_path;
    if (!js_start || !js_end)
        return;
    char err[2 * PATH_MAX];
    struct stoke_profile *before = stoke_profile_new(), *after = stoke_profile_new();
    if (stoke_js_heap_compare(js_start, js_end, before, after, &p->grew_js_classes, err,
                              sizeof err) == 0)
        p->grew_js =
            stoke_profile_diff(before, after, STOKE_JS_HEAP_SHALLOW_BYTES, STOKE_DIFF_ABSOLUTE);
    else
        fprintf(stderr, "stoke: %s\n", err);
    stoke_profile_free(before);
    stoke_profile_free(after);
}

static void free_profiles(struct profiles *p)
{
    stoke_profile_free(p->grew_native);
    stoke_profile_free(p->grew_window);
    stoke_profile_free(p->grew_range);
    stoke_profile_free(p->grew_js);
    stoke_js_heap_diff_free(p->grew_js_classes);
    stoke_profile_free(p->cpu);
    stoke_profile_free(p->cpu_merged);
    for (size_t i = 0; i < p->nheap; i++) {
        stoke_profile_free(p->heap[i].profile);
        js_snapshot_summary_free(&p->heap[i].summary);
    }
    free(p->heap);
}

static uint32_t pid_of(const struct heap_view *v)
{
    return v->snapshot ? v->snapshot->info.pid : 0;
}

static int several_processes(const struct profiles *p)
{
    for (size_t i = 1; i < p->nheap; i++)
        if (pid_of(&p->heap[i]) != pid_of(&p->heap[0]))
            return 1;
    return 0;
}

/* "heap 2 (exit)", "heap peak", or with several processes
 * "demo (4242) heap 2 (exit)"; where the recording has JavaScript heap
 * snapshots, "native heap 2 (signal)" and "JS heap 2 (signal)", and a
 * JavaScript one alone by its file's name. */
static void name_snapshot_tab(const struct profiles *p, const struct heap_view *v, char *name,
                              size_t len)
{
    if (!v->snapshot) {
        snprintf(name, len, "JS heap %s", base_name(v->js_alone));
        return;
    }
    const struct stoke_trace_info *info = &v->snapshot->info;
    char process[TAB_NAME_MAX / 2] = "";
    if (several_processes(p))
        snprintf(process, sizeof process, "%s (%u) ", v->comm, info->pid);
    const char *heap = v->js ? "JS heap" : p->has_js ? "native heap" : "heap";
    if (info->heap.trigger == STOKE_HEAP_PEAK)
        snprintf(name, len, "%s%s peak", process, heap);
    else
        snprintf(name, len, "%s%s %" PRIu64 " (%s)", process, heap, info->heap.sequence,
                 trigger_name(info->heap.trigger));
}

static int by_moment(const void *a, const void *b)
{
    const struct stoke_report_mark *x = a, *y = b;
    return (x->realtime_ns > y->realtime_ns) - (x->realtime_ns < y->realtime_ns);
}

/* The moments the timeline marks: the load's start and end, and each
 * native heap snapshot (named as its tab, names[i] of tabs[i]), in time
 * order; returns how many (room for 2 + ntabs in out). */
static size_t timeline_marks(const struct load_marks *load, const struct stoke_report_tab *tabs,
                             size_t ntabs, struct stoke_report_mark *out)
{
    size_t n = 0;
    if (load && load->start_ns) {
        out[n++] = (struct stoke_report_mark){"load start", load->start_ns};
        out[n++] = (struct stoke_report_mark){"load end", load->end_ns};
    }
    for (size_t t = 0; t < ntabs; t++) {
        const struct stoke_profile *profile = tabs[t].profile;
        if (profile->kind == STOKE_PROFILE_HEAP && !tabs[t].differential && profile->nprocs &&
            profile->procs[0].heap.realtime_ns)
            out[n++] = (struct stoke_report_mark){tabs[t].name, profile->procs[0].heap.realtime_ns};
    }
    qsort(out, n, sizeof *out, by_moment);
    return n;
}

/* What a CPU tab's samples measure: "Wall clock" when every process was
 * sampled on the wall clock (--clock wall), else "CPU". */
static const char *clock_word(const struct stoke_profile *cpu)
{
    for (size_t i = 0; i < cpu->nprocs; i++)
        if (cpu->procs[i].clock != STOKE_CLOCK_WALL)
            return "CPU";
    return cpu->nprocs ? "Wall clock" : "CPU";
}

static int write_tabs(const struct profiles *p, size_t ntabs, const struct stoke_report_note *note,
                      const struct load_marks *load, const char *path, char *err, size_t errlen)
{
    struct stoke_report_tab *tabs = stoke_xmalloc(ntabs * sizeof *tabs);
    char (*names)[TAB_NAME_MAX] = stoke_xmalloc(ntabs * sizeof *names);
    size_t n = 0;
    if (p->cpu_merged)
        tabs[n++] = (struct stoke_report_tab){clock_word(p->cpu), p->cpu_merged, 0};
    if (p->cpu) {
        snprintf(names[n], TAB_NAME_MAX, "%s%s", clock_word(p->cpu),
                 p->cpu_merged ? " by process" : "");
        tabs[n] = (struct stoke_report_tab){names[n], p->cpu, 0};
        n++;
    }
    if (p->grew_range)
        tabs[n++] = (struct stoke_report_tab){"heap: grew in range", p->grew_range, 1};
    if (p->grew_window)
        tabs[n++] = (struct stoke_report_tab){"heap: grew in the window", p->grew_window, 1};
    if (p->grew_native)
        tabs[n++] = (struct stoke_report_tab){
            p->has_js ? "native heap: grew during the load" : "heap: grew during the load",
            p->grew_native, 1};
    if (p->grew_js)
        tabs[n++] = (struct stoke_report_tab){"JS heap: grew during the load", p->grew_js, 1};
    for (size_t i = 0; i < p->nheap; i++, n++) {
        name_snapshot_tab(p, &p->heap[i], names[n], TAB_NAME_MAX);
        tabs[n] = (struct stoke_report_tab){names[n], p->heap[i].profile, 0};
    }
    struct stoke_report_mark *marks = stoke_xmalloc((2 + ntabs) * sizeof *marks);
    const struct stoke_report report = {.tabs = tabs, .ntabs = ntabs, .note = note,
                                        .marks = marks,
                                        .nmarks = timeline_marks(load, tabs, ntabs, marks)};
    int rc = write_report_file(STOKE_OUTPUT_HTML, &report, path, err, errlen);
    free(marks);
    free(tabs);
    free(names);
    return rc;
}

static int write_report(const struct profiles *p, const char *load_output,
                        const struct load_marks *marks, const char *path)
{
    char err[PATH_MAX + 256];
    size_t ntabs = (p->cpu != NULL) + (p->cpu_merged != NULL) + (p->grew_native != NULL) +
                   (p->grew_window != NULL) + (p->grew_range != NULL) +
                   (p->grew_js != NULL) + p->nheap;
    const struct stoke_report_note note = load_output
        ? (struct stoke_report_note){"Load command output", load_output}
        : (struct stoke_report_note){"Names", stoke_recording_names_note()};
    int rc = ntabs == 1 && !note.text && !p->nheap && !marks
                 ? write_profile_file(STOKE_OUTPUT_HTML, p->cpu, 0, path, err, sizeof err)
                 : write_tabs(p, ntabs, note.text ? &note : NULL, marks, path, err, sizeof err);
    if (rc)
        fprintf(stderr, "stoke: %s\n", err);
    return rc;
}

static int is_peak(const struct heap_view *v)
{
    return v->snapshot && v->snapshot->info.heap.trigger == STOKE_HEAP_PEAK;
}

/* 1 when heap[i] is the last snapshot of its heap of its process: the
 * highest sequence, or the peak snapshot of a process that has no other;
 * every JavaScript snapshot alone is a last one. */
static int is_last_of_process(const struct profiles *p, size_t i)
{
    const struct heap_view *v = &p->heap[i];
    for (size_t j = 0; v->snapshot && j < p->nheap; j++) {
        const struct heap_view *w = &p->heap[j];
        if (j != i && w->snapshot && pid_of(w) == pid_of(v) && w->js == v->js && !is_peak(w) &&
            (is_peak(v) || j > i))
            return 0;
    }
    return 1;
}

static void print_js_view(const struct heap_view *v)
{
    char what[PATH_MAX + 64];
    if (v->snapshot)
        snprintf(what, sizeof what, "%s (%u), snapshot %" PRIu64 " in %s",
                 v->comm, v->snapshot->info.pid, v->snapshot->info.heap.sequence,
                 v->snapshot->js_path);
    else
        snprintf(what, sizeof what, "%s", v->js_alone);
    print_js_constructors(stderr, what, &v->summary, JS_CONSTRUCTORS_SHOWN);
}

static void print_load_growth(const struct profiles *p)
{
    if (!p->grew_native)
        return;
    fprintf(stderr, "stoke: during the load:\n");
    print_largest_changes(stderr, p->grew_native,
                          p->has_js ? "native heap live bytes" : "live bytes",
                          LARGEST_STACKS_SHOWN);
    if (p->grew_js_classes)
        print_js_growth(stderr, p->grew_js_classes, JS_CONSTRUCTORS_SHOWN);
}

/* A line per native snapshot, the largest stacks of each process's last,
 * then the biggest constructors of each last JavaScript one, then what
 * grew during the load. */
static void print_heap_summary(const struct profiles *p, int measure)
{
    for (size_t i = 0; i < p->nheap; i++)
        if (!p->heap[i].js)
            print_snapshot_line(stderr, &p->heap[i].profile->procs[0]);
    for (size_t i = 0; i < p->nheap; i++)
        if (!p->heap[i].js && is_last_of_process(p, i))
            print_largest_stacks(stderr, p->heap[i].profile, measure, LARGEST_STACKS_SHOWN);
    for (size_t i = 0; i < p->nheap; i++)
        if (p->heap[i].js && is_last_of_process(p, i))
            print_js_view(&p->heap[i]);
    print_load_growth(p);
}

int report_recording(const struct recording *r, const struct stoke_load_options *opt,
                     int measure, const char *load_output, const struct load_marks *marks,
                     const char *html_path, const struct run_measures *run)
{
    struct profiles p;
    struct stoke_load_options html = *opt;
    html.keep_tiers = 1; /* the viewer merges tiers itself, and can split them */
    load_profiles(r, &html, &p);
    if (marks && load_marks_have_snapshots(marks))
        load_growth(&p, marks);
    int rc = -1;
    if (p.cpu || p.nheap) {
        rc = write_report(&p, load_output, marks, html_path);
        if (rc == 0)
            fprintf(stderr, "stoke: report written to %s\n", html_path);
        if (p.cpu)
            print_summary(stderr, p.cpu, run);
        print_heap_summary(&p, measure == MEASURE_UNSET || is_js_measure(measure)
                                   ? STOKE_HEAP_LIVE_BYTES
                                   : measure);
    }
    free_profiles(&p);
    return rc;
}
