/*
 * html_timeline.c - test and benchmark helper: writes reports of CPU samples
 * taken over time, each with the moment it was taken, as a recording read
 * from traces has them, so the report's timeline holds what it was built
 * from and nothing else.
 *
 * html_timeline phases OUT.html
 *   A recording of exactly 4 s from PHASES_START (us since the epoch, the
 *   processes' start), one sample every 1,003,009 ns (997 Hz): sample i at
 *   i * 1,003,009 ns.
 *     phases (4242), thread phases (4242): every sample; main;phase_a;spin
 *       before 2 s, main;phase_b;spin from 2 s; every tenth (i % 10 == 9)
 *       stands for two periods (weight 2), the others for one
 *     phases (4242), thread worker (4243): every fourth (i % 4 == 0),
 *       worker_loop;poll, weight 1
 *     helper (4250), thread helper (4250): every eighth (i % 8 == 0) in
 *       [1 s, 3 s), helper_main;compress, weight 1
 *   Tab "CPU" has the thread frames (as stoke report --threads writes
 *   them), tab "CPU by process" the same samples without them, tab "heap 1
 *   (exit)" a heap snapshot (no timeline). The timeline marks load start
 *   at 0.5 s, load end at 3.5 s and the snapshot at 4 s.
 *
 * html_timeline server SECONDS STACKS WORKERS OUT.html
 *   A server under load for SECONDS at 997 Hz: process server (7000), its
 *   main thread and WORKERS worker threads, each worker busy on a share of
 *   its samples that follows a load (light for the first and last 2% of
 *   the recording, full in its middle fiftieth, 60% elsewhere); a busy
 *   sample ends in one of STACKS handler functions (a ternary call tree
 *   under the event loop, the first ones far more often), an idle one in
 *   epoll_wait. Marks load start and end. For the viewer's benchmark.
 *
 * html_timeline server SECONDS STACKS WORKERS OUT.html HEAP_STACKS
 *   The same with the live heap over time of a --heap recording, in a tab
 *   "heap: grew in range" after the CPU tab: HEAP_STACKS allocation stacks
 *   (STACKS' handlers, then malloc), every 200 ms a moment of the
 *   process's totals and a change of live bytes on a tenth of the stacks
 *   (a random walk that never goes below zero), as the agent writes them.
 *
 * Never: part of stoke itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap_timeline.h"
#include "profile.h"
#include "report_files.h"
#include "sample_times.h"

#define PERIOD_NS 1003009ull
#define NS_PER_S 1000000000ull
#define PHASES_START_NS (1800000000ull * NS_PER_S)
#define PHASES_NS (4 * NS_PER_S)
#define MAX_STACK 64
#define BRANCHING 3
#define HEAP_POLL_NS (200 * 1000000ull)
#define HEAP_STEP 65536 /* bytes: the largest change of a stack in one poll */

static const char *const server_prefix[] = {
    "_start", "__libc_start_main", "main", "server::run()", "event_loop::poll_once()",
    "event_loop::dispatch(event&)",
};
#define SERVER_PREFIX (sizeof server_prefix / sizeof *server_prefix)

static uint32_t frame(struct stoke_profile *p, const char *name, enum stoke_frame_kind kind)
{
    struct stoke_frame f = {.name = name,
                            .module = kind == STOKE_KIND_PROCESS || kind == STOKE_KIND_THREAD ? ""
                                                                                           : "server",
                            .file = "", .kind = (uint8_t)kind, .build_id = ""};
    return stoke_profile_frame(p, &f);
}

/* Appends the frames of path ("a;b;c", program code) to stack at n;
 * returns the new length. */
static size_t append_path(struct stoke_profile *p, uint32_t *stack, size_t n, const char *path)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", path);
    for (char *save = NULL, *name = strtok_r(copy, ";", &save); name && n < MAX_STACK;
         name = strtok_r(NULL, ";", &save))
        stack[n++] = frame(p, name, STOKE_KIND_PROGRAM);
    return n;
}

static uint32_t add_process(struct stoke_profile *p, uint32_t pid, const char *comm,
                            uint64_t start_ns, uint64_t duration_ns)
{
    struct stoke_process_summary *s = stoke_profile_add_process(p);
    s->pid = pid;
    s->comm = strdup(comm);
    s->start_realtime_ns = start_ns;
    s->duration_us = duration_ns / 1000;
    s->period_ns = PERIOD_NS;
    return (uint32_t)(p->nprocs - 1);
}

/* One sample at time_ns on the stack "proc;[thread;]path". */
struct phases_sample {
    const char *proc, *thread, *path;
    uint32_t process, tid, weight;
};

static void add_phases_sample(struct stoke_profile *p, const struct phases_sample *s,
                              uint64_t time_ns, int with_threads)
{
    uint32_t stack[MAX_STACK];
    size_t n = 0;
    stack[n++] = frame(p, s->proc, STOKE_KIND_PROCESS);
    if (with_threads)
        stack[n++] = frame(p, s->thread, STOKE_KIND_THREAD);
    n = append_path(p, stack, n, s->path);
    const struct stoke_sample sample = {.time_ns = time_ns, .stack = stoke_profile_stack(p, stack, n),
                                        .process = s->process, .tid = s->tid, .weight = s->weight};
    stoke_profile_add_sample(p, &sample);
}

/* The phases recording (see the top of this file), with or without the
 * thread frames; processes are named "comm (pid)", or with threads "comm
 * (all processes)" as stoke report names a command's merged processes. */
static struct stoke_profile *phases_profile(int with_threads)
{
    struct stoke_profile *p = stoke_profile_new();
    p->period_ns = PERIOD_NS;
    uint32_t phases = add_process(p, 4242, "phases", PHASES_START_NS, PHASES_NS);
    uint32_t helper = add_process(p, 4250, "helper", PHASES_START_NS, PHASES_NS);
    const char *phases_root = with_threads ? "phases (all processes)" : "phases (4242)";
    const char *helper_root = with_threads ? "helper (all processes)" : "helper (4250)";
    for (uint64_t i = 0; i * PERIOD_NS < PHASES_NS; i++) {
        uint64_t t = i * PERIOD_NS;
        const struct phases_sample main_thread = {
            phases_root, "phases (4242)", t < 2 * NS_PER_S ? "main;phase_a;spin" : "main;phase_b;spin",
            phases, 4242, i % 10 == 9 ? 2 : 1};
        add_phases_sample(p, &main_thread, PHASES_START_NS + t, with_threads);
        const struct phases_sample worker = {phases_root, "worker (4243)", "worker_loop;poll", phases, 4243, 1};
        if (i % 4 == 0)
            add_phases_sample(p, &worker, PHASES_START_NS + t, with_threads);
        const struct phases_sample help = {helper_root, "helper (4250)", "helper_main;compress", helper, 4250, 1};
        if (i % 8 == 0 && t >= NS_PER_S && t < 3 * NS_PER_S)
            add_phases_sample(p, &help, PHASES_START_NS + t, with_threads);
    }
    return p;
}

/* An empty heap profile with the four heap values. */
static struct stoke_profile *new_heap_profile(void)
{
    static const char *const names[] = {"live_bytes", "live_objects", "alloc_bytes", "alloc_objects"};
    static const char *const units[] = {"bytes", "count", "bytes", "count"};
    struct stoke_profile *p = stoke_profile_new();
    p->kind = STOKE_PROFILE_HEAP;
    for (size_t v = 0; v < 4; v++)
        stoke_profile_set_value_type(p, v, names[v], units[v]);
    return p;
}

/* A heap snapshot at exit: 3 MiB live under main;load. */
static struct stoke_profile *heap_profile(void)
{
    struct stoke_profile *p = new_heap_profile();
    uint32_t stack[MAX_STACK];
    stack[0] = frame(p, "phases (4242)", STOKE_KIND_PROCESS);
    size_t n = append_path(p, stack, 1, "main;load;malloc");
    stoke_profile_add(p, stack, n, (int64_t[]){3 << 20, 3, 4 << 20, 4});
    add_process(p, 4242, "phases", PHASES_START_NS, PHASES_NS);
    return p;
}

static int write_phases(const char *path)
{
    struct stoke_report_tab tabs[] = {
        {"CPU", phases_profile(1), 0},
        {"CPU by process", phases_profile(0), 0},
        {"heap 1 (exit)", heap_profile(), 0},
    };
    const struct stoke_report_mark marks[] = {
        {"load start", PHASES_START_NS + NS_PER_S / 2},
        {"load end", PHASES_START_NS + 7 * NS_PER_S / 2},
        {"heap 1 (exit)", PHASES_START_NS + PHASES_NS},
    };
    const struct stoke_report r = {.tabs = tabs, .ntabs = 3, .title = "phases",
                                   .marks = marks, .nmarks = 3};
    int rc = write_report_file(path, &r);
    for (size_t t = 0; t < 3; t++)
        stoke_profile_free((struct stoke_profile *)tabs[t].profile);
    return rc < 0;
}

/* A 64-bit linear congruential generator: the same report on every run. */
static double uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / (double)(1ull << 53);
}

/* The share of a worker's samples that are busy at moment t of span. */
static double load_at(uint64_t t, uint64_t span)
{
    if (t < span / 50 || t >= span - span / 50)
        return 0.05;
    if (t >= span / 2 && t < span / 2 + span / 50)
        return 1.0;
    return 0.6;
}

/* The stacks of the server's busy samples: handler k is called by handler
 * (k - 1) / 3 under the event loop, as html_synthetic builds them. */
static uint32_t *server_stacks(struct stoke_profile *p, uint32_t nstacks, const uint32_t *base,
                               size_t nbase)
{
    uint32_t *ids = malloc(nstacks * sizeof *ids);
    uint32_t *stacks = malloc(nstacks * sizeof *stacks);
    char name[96];
    for (uint32_t k = 0; k < nstacks; k++) {
        snprintf(name, sizeof name, "handlers::route_%u::handle(request&)", k);
        ids[k] = frame(p, name, STOKE_KIND_PROGRAM);
    }
    for (uint32_t k = 0; k < nstacks; k++) {
        uint32_t chain[MAX_STACK], stack[MAX_STACK];
        size_t n = 0, len = nbase;
        for (uint32_t f = k;; f = (f - 1) / BRANCHING) {
            chain[n++] = ids[f];
            if (f == 0)
                break;
        }
        memcpy(stack, base, nbase * sizeof *base);
        while (n > 0)
            stack[len++] = chain[--n];
        stacks[k] = stoke_profile_stack(p, stack, len);
    }
    free(ids);
    return stacks;
}

/* The server's allocation stacks under its handlers (see the top of this
 * file); returns their stack indices. */
static uint32_t *allocation_stacks(struct stoke_profile *p, uint32_t nstacks)
{
    uint32_t base[MAX_STACK];
    size_t nbase = 0;
    base[nbase++] = frame(p, "server (7000)", STOKE_KIND_PROCESS);
    for (size_t k = 0; k < SERVER_PREFIX; k++)
        base[nbase++] = frame(p, server_prefix[k], STOKE_KIND_PROGRAM);
    uint32_t *handlers = server_stacks(p, nstacks, base, nbase);
    uint32_t malloc_frame = frame(p, "malloc", STOKE_KIND_LIBC);
    for (uint32_t k = 0; k < nstacks; k++) {
        uint32_t stack[MAX_STACK + 1];
        uint32_t len = p->stack_len[handlers[k]];
        memcpy(stack, &p->stack_frames[p->stack_start[handlers[k]]], len * sizeof *stack);
        stack[len] = malloc_frame;
        handlers[k] = stoke_profile_stack(p, stack, len + 1);
    }
    return handlers;
}

/* The live heap over time of the server (see the top of this file). */
static struct stoke_profile *server_heap(uint64_t start, uint64_t span, uint32_t nstacks)
{
    struct stoke_profile *p = new_heap_profile();
    add_process(p, 7000, "server", start, span);
    uint32_t *stacks = allocation_stacks(p, nstacks);
    int64_t *live = calloc(nstacks, sizeof *live), total = 0;
    uint64_t rng = 7;
    for (uint64_t t = 0; t <= span; t += HEAP_POLL_NS) {
        for (uint32_t i = 0; i < nstacks / 10 + 1; i++) {
            uint32_t k = (uint32_t)(uniform(&rng) * nstacks);
            int64_t change = (int64_t)((uniform(&rng) - 0.45) * HEAP_STEP);
            change = live[k] + change < 0 ? -live[k] : change;
            live[k] += change;
            total += change;
            const struct stoke_heap_change c = {start + t, stacks[k], change, change / 64};
            stoke_profile_add_heap_change(p, &c);
        }
        const struct stoke_heap_moment m = {.time_ns = start + t, .live_bytes = (uint64_t)total};
        stoke_profile_add_heap_moment(p, &m);
    }
    free(live);
    free(stacks);
    stoke_heap_growth_whole(p);
    return p;
}

static int write_server(uint64_t seconds, uint32_t nstacks, uint32_t workers, const char *path,
                        uint32_t heap_stacks)
{
    const uint64_t start = PHASES_START_NS, span = seconds * NS_PER_S;
    struct stoke_profile *p = stoke_profile_new();
    p->period_ns = PERIOD_NS;
    add_process(p, 7000, "server", start, span);
    uint64_t rng = 42;
    for (uint32_t w = 0; w <= workers; w++) {
        char thread[64];
        if (w)
            snprintf(thread, sizeof thread, "worker-%u (%u)", w, 7000 + w);
        else
            snprintf(thread, sizeof thread, "server (7000)");
        uint32_t base[MAX_STACK];
        size_t nbase = 0;
        base[nbase++] = frame(p, "server (7000)", STOKE_KIND_PROCESS);
        base[nbase++] = frame(p, thread, STOKE_KIND_THREAD);
        for (size_t k = 0; k < SERVER_PREFIX; k++)
            base[nbase++] = frame(p, server_prefix[k], STOKE_KIND_PROGRAM);
        uint32_t *busy = server_stacks(p, nstacks, base, nbase);
        base[nbase] = frame(p, "epoll_wait", STOKE_KIND_PROGRAM);
        uint32_t idle = stoke_profile_stack(p, base, nbase + 1);
        for (uint64_t t = 0; t < span; t += PERIOD_NS) {
            double u = uniform(&rng), pick = uniform(&rng);
            int working = w > 0 && u < load_at(t, span);
            uint32_t stack = working ? busy[(uint32_t)(pick * pick * pick * nstacks)] : idle;
            const struct stoke_sample s = {.time_ns = start + t, .stack = stack, .process = 0,
                                           .tid = 7000 + w, .weight = 1};
            if (working || pick < 0.05) /* an idle thread is sampled seldom */
                stoke_profile_add_sample(p, &s);
        }
        free(busy);
    }
    struct stoke_profile *heap = heap_stacks ? server_heap(start, span, heap_stacks) : NULL;
    const struct stoke_report_tab tabs[] = {{"CPU", p, 0}, {"heap: grew in range", heap, 1}};
    const struct stoke_report_mark marks[] = {
        {"load start", start + span / 50}, {"load end", start + span - span / 50}};
    const struct stoke_report r = {.tabs = tabs, .ntabs = heap ? 2 : 1,
                                   .title = "server under load", .marks = marks, .nmarks = 2};
    int rc = write_report_file(path, &r);
    stoke_profile_free(p);
    stoke_profile_free(heap);
    return rc < 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "phases") == 0)
        return write_phases(argv[2]);
    int server = (argc == 6 || argc == 7) && strcmp(argv[1], "server") == 0;
    long seconds = server ? strtol(argv[2], NULL, 10) : 0;
    long stacks = server ? strtol(argv[3], NULL, 10) : 0;
    long workers = server ? strtol(argv[4], NULL, 10) : 0;
    long heap_stacks = argc == 7 ? strtol(argv[6], NULL, 10) : 0;
    if (server && seconds > 0 && seconds <= 86400 && stacks > 0 && stacks <= 1000000 &&
        workers > 0 && workers <= 64 && heap_stacks >= 0 && heap_stacks <= 1000000 &&
        (argc == 6 || heap_stacks > 0))
        return write_server((uint64_t)seconds, (uint32_t)stacks, (uint32_t)workers, argv[5],
                            (uint32_t)heap_stacks);
    fprintf(stderr, "usage: html_timeline phases OUT.html\n"
                    "       html_timeline server SECONDS STACKS WORKERS OUT.html [HEAP_STACKS]\n");
    return 2;
}
