/*
 * recording_report.c - loads every profile of a recording (the CPU traces
 * as one, each heap snapshot on its own), writes them as one HTML report
 * and prints the summary; see recording_report.h. A recording of several
 * processes gets two CPU tabs: merged by command first, then by process.
 * Owns the tabs' order and names. Never formats profile data itself: the viewer and the summaries do.
 */
#include "recording_report.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "heap_summary.h"
#include "measure.h"
#include "outputs.h"
#include "stoke_format.h"

#define LARGEST_STACKS_SHOWN 5
#define TAB_NAME_MAX 160

/* The profiles of a recording: CPU (NULL without CPU traces) with a stack
 * root per process, the same merged by command (NULL unless it has
 * several processes), then the snapshots that could be loaded, in the
 * recording's order. */
struct profiles {
    struct stoke_profile *cpu;
    struct stoke_profile *cpu_merged;
    struct stoke_profile **heap;
    size_t nheap;
};

static void load_profiles(const struct recording *r, const struct stoke_load_options *opt,
                          struct profiles *out)
{
    char err[PATH_MAX + 256];
    out->cpu = r->ncpu ? load_cpu_profile(r, opt, err, sizeof err) : NULL;
    if (r->ncpu && !out->cpu)
        fprintf(stderr, "stoke: %s\n", err);
    out->cpu_merged = NULL;
    if (out->cpu && out->cpu->nprocs > 1) {
        struct stoke_load_options merged = *opt;
        merged.merge_processes = 1;
        out->cpu_merged = load_cpu_profile(r, &merged, err, sizeof err);
    }
    out->heap = stoke_xmalloc((r->nsnapshots ? r->nsnapshots : 1) * sizeof *out->heap);
    out->nheap = 0;
    for (size_t i = 0; i < r->nsnapshots; i++) {
        const struct snapshot *s = &r->snapshots[i];
        struct stoke_profile *p = load_snapshots(&s, 1, err, sizeof err);
        if (p)
            out->heap[out->nheap++] = p;
        else
            fprintf(stderr, "stoke: %s\n", err);
    }
}

static void free_profiles(struct profiles *p)
{
    stoke_profile_free(p->cpu);
    stoke_profile_free(p->cpu_merged);
    for (size_t i = 0; i < p->nheap; i++)
        stoke_profile_free(p->heap[i]);
    free(p->heap);
}

static int several_processes(const struct profiles *p)
{
    for (size_t i = 1; i < p->nheap; i++)
        if (p->heap[i]->procs[0].pid != p->heap[0]->procs[0].pid)
            return 1;
    return 0;
}

/* "heap 2 (exit)", "heap peak", or with several processes
 * "demo (4242) heap 2 (exit)". */
static void name_snapshot_tab(const struct stoke_process_summary *s, int with_process,
                              char *name, size_t len)
{
    char process[TAB_NAME_MAX / 2] = "";
    if (with_process)
        snprintf(process, sizeof process, "%s (%u) ", s->comm, s->pid);
    if (s->heap.trigger == STOKE_HEAP_PEAK)
        snprintf(name, len, "%sheap peak", process);
    else
        snprintf(name, len, "%sheap %" PRIu64 " (%s)", process, s->heap.sequence,
                 trigger_name(s->heap.trigger));
}

static int write_tabs(const struct profiles *p, size_t ntabs, const struct stoke_html_note *note,
                      const char *path, char *err, size_t errlen)
{
    struct stoke_html_tab *tabs = stoke_xmalloc(ntabs * sizeof *tabs);
    char (*names)[TAB_NAME_MAX] = stoke_xmalloc(ntabs * sizeof *names);
    size_t n = 0;
    if (p->cpu_merged)
        tabs[n++] = (struct stoke_html_tab){"CPU", p->cpu_merged, 0};
    if (p->cpu)
        tabs[n++] = (struct stoke_html_tab){p->cpu_merged ? "CPU by process" : "CPU", p->cpu, 0};
    for (size_t i = 0; i < p->nheap; i++, n++) {
        name_snapshot_tab(&p->heap[i]->procs[0], several_processes(p), names[n], TAB_NAME_MAX);
        tabs[n] = (struct stoke_html_tab){names[n], p->heap[i], 0};
    }
    int rc = write_html_tabs_file(tabs, ntabs, NULL, note, path, err, errlen);
    free(tabs);
    free(names);
    return rc;
}

static int write_report(const struct profiles *p, const char *load_output, const char *path)
{
    char err[PATH_MAX + 256];
    size_t ntabs = (p->cpu != NULL) + (p->cpu_merged != NULL) + p->nheap;
    const struct stoke_html_note note = {"Load command output", load_output};
    int rc = ntabs == 1 && !load_output
                 ? write_html_file(p->cpu ? p->cpu : p->heap[0], path, err, sizeof err)
                 : write_tabs(p, ntabs, load_output ? &note : NULL, path, err, sizeof err);
    if (rc)
        fprintf(stderr, "stoke: %s\n", err);
    return rc;
}

static int is_peak(const struct stoke_profile *heap)
{
    return heap->procs[0].heap.trigger == STOKE_HEAP_PEAK;
}

/* 1 when heap[i] is the last snapshot of its process: the highest
 * sequence, or the peak snapshot of a process that has no other. */
static int is_last_of_process(const struct profiles *p, size_t i)
{
    uint32_t pid = p->heap[i]->procs[0].pid;
    for (size_t j = 0; j < p->nheap; j++)
        if (j != i && p->heap[j]->procs[0].pid == pid && !is_peak(p->heap[j]) &&
            (is_peak(p->heap[i]) || j > i))
            return 0;
    return 1;
}

/* A line per snapshot, then the largest stacks of each process's last. */
static void print_heap_summary(const struct profiles *p, int measure)
{
    for (size_t i = 0; i < p->nheap; i++)
        print_snapshot_line(stderr, &p->heap[i]->procs[0]);
    for (size_t i = 0; i < p->nheap; i++)
        if (is_last_of_process(p, i))
            print_largest_stacks(stderr, p->heap[i], measure, LARGEST_STACKS_SHOWN);
}

int report_recording(const struct recording *r, const struct stoke_load_options *opt,
                     int measure, const char *load_output, const char *html_path,
                     const struct run_measures *run)
{
    struct profiles p;
    struct stoke_load_options html = *opt;
    html.keep_tiers = 1; /* the viewer merges tiers itself, and can split them */
    load_profiles(r, &html, &p);
    int rc = -1;
    if (p.cpu || p.nheap) {
        rc = write_report(&p, load_output, html_path);
        if (rc == 0)
            fprintf(stderr, "stoke: report written to %s\n", html_path);
        if (p.cpu)
            print_summary(stderr, p.cpu, run);
        print_heap_summary(&p, measure == MEASURE_UNSET ? STOKE_HEAP_LIVE_BYTES : measure);
    }
    free_profiles(&p);
    return rc;
}
