/*
 * summary.c - prints what a profile holds in a few lines: how long, how many
 * samples (and, with the CPU time known, how close to the asked rate) and
 * how many were lost, the processes with the most samples (and their
 * sampling engine when it is a fallback), and the ten hottest functions by
 * self samples, with their total (self and callees) share. Reads the
 * profile only; never changes it.
 */
#define _GNU_SOURCE /* qsort_r */
#include "summary.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stoke_format.h"
#include "warn.h"

#define HOTTEST_SHOWN 10
#define PROCESSES_SHOWN 10
#define NAME_WIDTH_MAX 100

/* One function, all its frames (lines, inline sites) merged: samples with
 * it as the leaf (self) and with it anywhere on the stack (total). */
struct hot_function {
    const char *name;
    const char *module;
    int kind;
    int64_t self, total;
    size_t last_row; /* row + 1 that last added to total (recursion counts once) */
};

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

static uint64_t longest_process_us(const struct stoke_profile *p)
{
    uint64_t longest = 0;
    for (size_t i = 0; i < p->nprocs; i++)
        if (p->procs[i].duration_us > longest)
            longest = p->procs[i].duration_us;
    return longest;
}

static int all_cpu_clock(const struct stoke_profile *p)
{
    for (size_t i = 0; i < p->nprocs; i++)
        if (p->procs[i].clock != STOKE_CLOCK_CPU)
            return 0;
    return p->nprocs > 0;
}

/* 1 when a process's trace lost its oldest parts (--max-size): its samples
 * are not those of the whole run's CPU time. */
static int some_parts_removed(const struct stoke_profile *p)
{
    for (size_t i = 0; i < p->nprocs; i++)
        if (p->procs[i].first_part > 1)
            return 1;
    return 0;
}

/* Samples per second of CPU time, against the rate asked. */
static void print_rate(FILE *out, const struct stoke_profile *p, uint64_t samples,
                       uint64_t cpu_us)
{
    if (!cpu_us || !all_cpu_clock(p) || some_parts_removed(p))
        return;
    fprintf(out, " (%.0f per CPU-second, %u asked)", (double)samples * 1e6 / (double)cpu_us,
            p->procs[0].requested_hz);
}

/* The processes of p: its distinct pids (a process that ran exec left a
 * trace of each program it ran, one summary each). */
static size_t count_processes(const struct stoke_profile *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nprocs; i++) {
        size_t j = 0;
        while (j < i && p->procs[j].pid != p->procs[i].pid)
            j++;
        n += j == i;
    }
    return n;
}

static void print_totals(FILE *out, const struct stoke_profile *p, const struct run_measures *run)
{
    uint64_t samples = 0, lost = 0;
    for (size_t i = 0; i < p->nprocs; i++) {
        samples += p->procs[i].samples;
        lost += p->procs[i].samples_lost;
    }
    uint64_t wall_us = run->wall_us ? run->wall_us : longest_process_us(p);
    fprintf(out, "stoke: %.2f s, %" PRIu64 " sample%s", (double)wall_us / 1e6, samples,
            plural(samples));
    print_rate(out, p, samples, run->cpu_us);
    size_t processes = count_processes(p);
    fprintf(out, ", %" PRIu64 " lost, %zu process%s\n", lost, processes,
            processes == 1 ? "" : "es");
}

static const char *engine_name(int engine)
{
    switch (engine) {
    case STOKE_ENGINE_PERF_TASK_CLOCK:
        return "perf task-clock";
    case STOKE_ENGINE_POSIX_THREAD_CPU:
        return "POSIX thread CPU-time timers";
    case STOKE_ENGINE_SETITIMER:
        return "setitimer";
    }
    return "an unknown engine";
}

/* 1 when the running threads of the process were sampled by perf events,
 * the engine that reaches the rate asked; the others are fallbacks. */
static int sampled_by_primary_engine(const struct stoke_process_summary *proc)
{
    return proc->engine == STOKE_ENGINE_PERF_TASK_CLOCK;
}

static int still_running(const struct stoke_process_summary *proc,
                         const struct run_measures *run)
{
    for (size_t i = 0; i < run->nrunning; i++)
        if ((uint32_t)run->running[i] == proc->pid)
            return 1;
    return 0;
}

static void print_process(FILE *out, const struct stoke_process_summary *proc,
                          const struct run_measures *run)
{
    fputs("  ", out);
    stoke_put_printable(out, proc->comm, SIZE_MAX);
    fprintf(out, " (%u): %" PRIu64 " sample%s", proc->pid, proc->samples, plural(proc->samples));
    if (proc->samples_lost)
        fprintf(out, ", %" PRIu64 " lost", proc->samples_lost);
    if (!sampled_by_primary_engine(proc))
        fprintf(out, ", sampled by %s (fewer samples than asked)", engine_name(proc->engine));
    if (proc->first_part > 1)
        fprintf(out, ", its first %.1f s removed by --max-size (the trace keeps %.1f-%.1f s)",
                (double)proc->kept_from_us / 1e6, (double)proc->kept_from_us / 1e6,
                (double)proc->duration_us / 1e6);
    if (still_running(proc, run))
        fprintf(out, ", still running (its trace so far)");
    else if (!proc->ended_cleanly)
        fprintf(out, ", trace cut short");
    fputc('\n', out);
}

static int by_samples_descending(const void *a, const void *b)
{
    const struct stoke_process_summary *x = *(const struct stoke_process_summary *const *)a;
    const struct stoke_process_summary *y = *(const struct stoke_process_summary *const *)b;
    if (x->samples != y->samples)
        return x->samples < y->samples ? 1 : -1;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The processes with the most samples, and one line for the rest. */
static void print_processes(FILE *out, const struct stoke_profile *p,
                            const struct run_measures *run)
{
    const struct stoke_process_summary **order = calloc(p->nprocs ? p->nprocs : 1, sizeof *order);
    if (!order)
        return;
    for (size_t i = 0; i < p->nprocs; i++)
        order[i] = &p->procs[i];
    qsort(order, p->nprocs, sizeof *order, by_samples_descending);
    uint64_t rest_samples = 0;
    for (size_t i = 0; i < p->nprocs; i++) {
        if (i < PROCESSES_SHOWN)
            print_process(out, order[i], run);
        else
            rest_samples += order[i]->samples;
    }
    if (p->nprocs > PROCESSES_SHOWN)
        fprintf(out, "  and %zu more processes: %" PRIu64 " sample%s\n",
                p->nprocs - PROCESSES_SHOWN, rest_samples, plural(rest_samples));
    free(order);
}

static int by_name_and_module(const struct hot_function *x, const struct hot_function *y)
{
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->module, y->module);
}

/* Sorts indices into the frames by the function they belong to. */
static int frames_by_function(const void *a, const void *b, void *frames)
{
    const struct stoke_frame *x = (const struct stoke_frame *)frames + *(const uint32_t *)a;
    const struct stoke_frame *y = (const struct stoke_frame *)frames + *(const uint32_t *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->module, y->module);
}

static int by_self_descending(const void *a, const void *b)
{
    const struct hot_function *x = a, *y = b;
    if (x->self != y->self)
        return (x->self < y->self) - (x->self > y->self);
    return (x->total < y->total) - (x->total > y->total);
}

/* One entry per function (frames of the same name and module merged);
 * function_of[frame] its index. Returns how many. */
static size_t merge_frames(const struct stoke_profile *p, struct hot_function *fn,
                           uint32_t *function_of)
{
    uint32_t *order = calloc(p->nframes ? p->nframes : 1, sizeof *order);
    if (!order)
        return 0;
    for (size_t i = 0; i < p->nframes; i++)
        order[i] = (uint32_t)i;
    qsort_r(order, p->nframes, sizeof *order, frames_by_function, p->frames);
    size_t n = 0;
    for (size_t i = 0; i < p->nframes; i++) {
        const struct stoke_frame *f = &p->frames[order[i]];
        struct hot_function next = {f->name, f->module, f->kind, 0, 0, 0};
        if (!n || by_name_and_module(&fn[n - 1], &next))
            fn[n++] = next;
        function_of[order[i]] = (uint32_t)(n - 1);
    }
    free(order);
    return n;
}

/* Adds row r's value to the self of its leaf's function and to the total
 * of every function on its stack (once each). */
static void count_row(const struct stoke_profile *p, size_t r, struct hot_function *fn,
                      const uint32_t *function_of)
{
    uint32_t s = p->rows[r].stack;
    const uint32_t *frames = p->stack_frames + p->stack_start[s];
    int64_t value = p->rows[r].values[0];
    for (uint32_t i = 0; i < p->stack_len[s]; i++) {
        struct hot_function *f = &fn[function_of[frames[i]]];
        if (f->last_row != r + 1)
            f->total += value;
        f->last_row = r + 1;
        if (i + 1 == p->stack_len[s])
            f->self += value;
    }
}

/* The functions with samples, hottest (by self) first; returns how many. */
static size_t hot_functions(const struct stoke_profile *p, struct hot_function **result)
{
    struct hot_function *fn = calloc(p->nframes ? p->nframes : 1, sizeof *fn);
    uint32_t *function_of = calloc(p->nframes ? p->nframes : 1, sizeof *function_of);
    size_t n = fn && function_of ? merge_frames(p, fn, function_of) : 0;
    for (size_t r = 0; n && r < p->nrows; r++)
        count_row(p, r, fn, function_of);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (fn[i].total > 0 && fn[i].kind != STOKE_KIND_PROCESS &&
            fn[i].kind != STOKE_KIND_THREAD) /* not the synthetic roots */
            fn[kept++] = fn[i];
    qsort(fn, kept, sizeof *fn, by_self_descending);
    free(function_of);
    *result = fn;
    return kept;
}

void print_hottest(FILE *out, const struct stoke_profile *p)
{
    int64_t total = stoke_profile_total(p, 0);
    struct hot_function *fn = NULL;
    size_t n = total > 0 ? hot_functions(p, &fn) : 0;
    if (n)
        fprintf(out, "  hottest functions:\n     self   total  function\n");
    for (size_t i = 0; i < n && i < HOTTEST_SHOWN; i++) {
        fprintf(out, "  %6.1f%% %6.1f%%  ", 100.0 * (double)fn[i].self / (double)total,
                100.0 * (double)fn[i].total / (double)total);
        stoke_put_printable(out, fn[i].name, NAME_WIDTH_MAX);
        if ((fn[i].kind == STOKE_KIND_LIBRARY || fn[i].kind == STOKE_KIND_LIBC) && *fn[i].module) {
            fputs("  (", out);
            stoke_put_printable(out, fn[i].module, SIZE_MAX);
            fputc(')', out);
        }
        fputc('\n', out);
    }
    free(fn);
}

void print_summary(FILE *out, const struct stoke_profile *p, const struct run_measures *run)
{
    print_totals(out, p, run);
    print_processes(out, p, run);
    print_hottest(out, p);
}
