/*
 * trace_load.c - turns one trace file into profile rows; see trace_load.h.
 *
 * Owns: the meaning of each record type (PROCESS, MAP, THREAD, STACK,
 * SAMPLES, END, NOTE, HEAP, HEAP_STACK, JIT_MAP) and the shape of stacks in the
 * profile: the process root "comm (pid)", an optional thread frame
 * "name (tid)" (CPU traces only), then callers to leaf. A stack the agent
 * marked truncated or partial gets an "[incomplete stack]" frame under those
 * roots, since its outer callers are missing. Also which kind of profile a
 * file may join: the first file loaded makes the profile CPU (SAMPLES, or
 * no HEAP record at all) or heap (a HEAP record), and a file of the other
 * kind is refused before any of its values are added. With heap_timeline,
 * a CPU trace gives its live heap over time (HEAP_TOTALS, HEAP_GROWTH)
 * instead of its samples, into a heap profile. JIT_MAP records are
 * read in a first pass over the file: a runtime may name code after the
 * stacks that ran it were written (the JVM writes its map at exit). A
 * trace split into parts (PART, NEXT_PART) is read on from the part the
 * path names, each part's stacks and JIT names its own, into one process.
 * Never: allocates per sample (each distinct stack id is symbolized once and
 * each distinct thread + stack id interned once), writes output files,
 * prints more than MAX_NOTES_SHOWN of a trace's notes, or exits.
 */
#include "trace_load.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "code_sites.h"
#include "fields.h"
#include "heap_record.h"
#include "perfmap.h"
#include "reader.h"
#include "recording_names.h"
#include "heap_timeline.h"
#include "sample_times.h"
#include "stoke_format.h"
#include "symbolize.h"
#include "trace_parts.h"
#include "u64map.h"
#include "warn.h"

#define MAX_STACK_ID (1u << 28)        /* larger ids are taken as damage */
#define MAX_RECORD_FRAMES (8 * STOKE_MAX_FRAMES)
#define NO_PROCESS SIZE_MAX
/* Largest total of a heap value in one snapshot (4 PiB, or 4.5e15 objects):
 * more is damage, so sums over any number of snapshots stay far from
 * overflowing the profile's 64-bit values. */
#define MAX_HEAP_TOTAL (UINT64_C(1) << 52)
/* Most sampled time one trace may hold (9 years of CPU): more is damage, so
 * samples times the period, and their sums, stay far from overflowing. */
#define MAX_TRACE_SAMPLED_NS (UINT64_C(1) << 58)
/* NOTE records shown per trace (the agent writes a handful); the others are
 * counted in one line. */
#define MAX_NOTES_SHOWN 10
/* The one frame that stands for the agent's own code in a stack. */
#define AGENT_FRAME "[stoke agent]"

/* A frame of a STACK record: module id and offset (ELF virtual address). */
struct code_address {
    uint64_t module, offset;
};

/* The live heap of the allocation stacks the heap timeline read so far:
 * a later part's first HEAP_GROWTH holds whole values, not changes. */
struct heap_said {
    struct stoke_u64map index;   /* profile stack -> index in stacks */
    struct stoke_heap_change *stacks; /* time unused: the sum of its changes */
    size_t n, cap;
};

/* A trace stack as a stack of the profile, and its site (code_sites.h):
 * NO_SITE in a heap timeline, whose changes are by stack alone. */
struct interned_stack {
    uint32_t stack, site;
};

#define NO_SITE UINT32_MAX

/* A sample's site field: the site's index + 1, 0 for none. */
static uint32_t site_number(struct interned_stack s)
{
    return s.site == NO_SITE ? 0 : s.site + 1;
}

/* A symbolized trace stack: frames[start .. start+len), root first, without
 * the process and thread roots. */
struct trace_stack {
    uint32_t start, len;
    uint8_t defined;
};

struct loader {
    struct stoke_profile *profile;
    const char *path;
    int split_threads;
    int merge_processes;
    int keep_tiers;
    int heap_timeline;
    int live;
    const char *part_path;        /* the part being read (path, then the next ones) */
    uint32_t part;                /* its number: 1, or its PART record's */
    char *next_part;              /* its NEXT_PART's file name, or NULL */
    uint32_t files_read;          /* parts read whole before this one */
    int chain_broken;             /* a later part is not this trace's next: stop */
    struct heap_said heap_said;
    size_t proc;                  /* index in profile->procs, or NO_PROCESS */
    uint32_t root;                /* the "comm (pid)" frame */
    char *exe;                    /* main executable path from PROCESS */
    int maps_seen;
    struct stoke_symbolizer *symbolizer;
    struct stoke_u64map agent_modules;  /* module ids of the agent (libstoke*.so) */
    struct stoke_u64map thread_frames;  /* tid -> "name (tid)" frame */
    struct stoke_u64map profile_stacks; /* thread frame + stack id -> index in interned */
    struct interned_stack *interned;
    size_t ninterned, interned_cap;
    struct trace_stack *stacks;   /* by trace stack id */
    size_t stacks_cap;
    uint32_t *frames;             /* pool of all trace stacks' frames */
    uint32_t *frame_at;           /* where each was: a symbolizer position + 1, 0 none */
    size_t nframes, frames_cap, frame_at_cap;
    uint32_t *scratch;            /* a stack being assembled */
    struct stoke_position *scratch_at; /* and its positions */
    size_t scratch_cap, scratch_at_cap;
    uint64_t weight_total, last_time_us;
    uint64_t damaged_records;
    uint64_t notes;               /* NOTE records read */
    int kind_settled;             /* this file's kind was checked against the profile */
    int heap_seen;                /* the HEAP record was read: a heap snapshot */
    uint64_t heap_stacks;         /* HEAP_STACK records read */
    uint64_t heap_totals[STOKE_HEAP_NVALUES]; /* their values added up */
    int refused;                  /* the file's kind is not the profile's: stop */
    struct stoke_perfmap *jit_map; /* the trace's JIT_MAP text, until the symbolizer has it */
    uint64_t jit_map_bytes;
    struct code_address addresses[MAX_RECORD_FRAMES]; /* of the STACK record being read */
};

static struct stoke_process_summary *summary(struct loader *l)
{
    return &l->profile->procs[l->proc];
}

static char *copy_str(const uint8_t *bytes, size_t len)
{
    char *s = stoke_xmalloc(len + 1);
    memcpy(s, bytes, len);
    s[len] = '\0';
    return s;
}

static uint32_t synthetic_frame(struct loader *l, const char *name, uint8_t kind)
{
    struct stoke_frame f = {.name = name, .module = "", .file = "", .kind = kind};
    return stoke_profile_frame(l->profile, &f);
}

static uint32_t named_frame(struct loader *l, const char *name, uint64_t id, uint8_t kind)
{
    char text[512];
    snprintf(text, sizeof text, "%s (%" PRIu64 ")", name, id);
    return synthetic_frame(l, text, kind);
}

/* The one root of every process of a command, when processes are merged. */
static uint32_t merged_process_frame(struct loader *l, const char *comm)
{
    char text[512];
    snprintf(text, sizeof text, "%s (all processes)", comm);
    return synthetic_frame(l, text, STOKE_KIND_PROCESS);
}

/* --- PROCESS -------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void start_process(struct loader *l, uint64_t pid, const char *comm, char *exe,
                          const char *cwd)
{
    l->exe = exe;
    l->proc = l->profile->nprocs;
    struct stoke_process_summary *s = stoke_profile_add_process(l->profile);
    s->pid = (uint32_t)pid;
    s->comm = stoke_xstrdup(comm);
    s->trace_path = stoke_xstrdup(l->path);
    l->root = l->merge_processes ? merged_process_frame(l, comm)
                                 : named_frame(l, comm, pid, STOKE_KIND_PROCESS);
    s->root_frame = l->root;
    l->symbolizer = stoke_symbolizer_new(l->profile, l->path, (uint32_t)pid);
    struct stoke_jit_context process = {
        .cwd = cwd, .jvm = !strcmp(base_name(exe), "java"), .keep_tiers = l->keep_tiers};
    stoke_symbolizer_set_process(l->symbolizer, &process);
    stoke_symbolizer_set_jit_map(l->symbolizer, l->jit_map);
    l->jit_map = NULL;
    if (!l->live) /* a trace still written is named when it is whole */
        stoke_symbolizer_set_names(l->symbolizer, stoke_recording_names_of(l->path));
}

/* Records that should follow PROCESS but came without one still count. */
static void ensure_process(struct loader *l)
{
    if (l->proc == NO_PROCESS)
        start_process(l, 0, "[unknown process]", stoke_xstrdup(""), "");
}

static int on_process(struct loader *l, struct stoke_fields *f)
{
    uint64_t pid = stoke_field_u(f), ppid = stoke_field_u(f);
    uint64_t start_realtime_ns = stoke_field_u(f);
    stoke_field_u(f); /* start_monotonic_ns */
    uint64_t clock = stoke_field_u(f), engine = stoke_field_u(f);
    uint64_t hz = stoke_field_u(f), period_ns = stoke_field_u(f);
    size_t comm_len, exe_len, cwd_len = 0;
    const uint8_t *comm = stoke_field_bytes(f, &comm_len);
    const uint8_t *exe = stoke_field_bytes(f, &exe_len);
    if (!f->bad && l->proc != NO_PROCESS && summary(l)->parts > 0) {
        l->chain_broken = pid != summary(l)->pid; /* a later part repeats it */
        return 0;
    }
    if (f->bad || l->proc != NO_PROCESS || period_ns > STOKE_MAX_PERIOD_NS)
        return -1;
    struct stoke_fields later = *f; /* cmdline, then fields of 1.2 and 1.3 */
    stoke_field_bytes(&later, &cwd_len);
    stoke_field_u(&later); /* heap_interval */
    stoke_field_u(&later); /* heap_signal */
    const uint8_t *cwd = stoke_field_more(&later) ? stoke_field_bytes(&later, &cwd_len) : NULL;
    char *name = copy_str(comm, comm_len);
    char *dir = later.bad || !cwd ? stoke_xstrdup("") : copy_str(cwd, cwd_len);
    start_process(l, pid, name, copy_str(exe, exe_len), dir);
    free(name);
    free(dir);
    struct stoke_process_summary *s = summary(l);
    s->ppid = (uint32_t)ppid;
    s->start_realtime_ns = start_realtime_ns;
    s->clock = (int)clock;
    s->engine = (int)engine;
    s->requested_hz = (uint32_t)hz;
    s->period_ns = period_ns;
    if (!l->profile->period_ns)
        l->profile->period_ns = period_ns;
    return 0;
}

/* --- MAP, THREAD ---------------------------------------------------------- */

/* The agent's libraries: libstoke.so, libstoke-cpu.so. */
static int is_agent_path(const char *path)
{
    const char *name = base_name(path);
    return !strncmp(name, "libstoke", 8) && strstr(name, ".so") != NULL;
}

static int is_agent_module(struct loader *l, uint64_t module)
{
    uint32_t unused;
    return stoke_u64map_get(&l->agent_modules, module, &unused);
}

static int on_map(struct loader *l, struct stoke_fields *f)
{
    struct stoke_module_desc m = {.id = stoke_field_u(f)};
    m.start = stoke_field_u(f);
    m.end = stoke_field_u(f);
    m.load_bias = stoke_field_u(f); /* offsets are ELF virtual addresses already */
    m.build_id = stoke_field_bytes(f, &m.build_id_len);
    size_t path_len;
    const uint8_t *path = stoke_field_bytes(f, &path_len);
    stoke_field_u(f); /* time_us */
    if (f->bad)
        return -1;
    if (stoke_field_more(f))
        m.alias_of = stoke_field_u(f);
    ensure_process(l);
    char *p = copy_str(path, path_len);
    m.path = p;
    m.is_main = *l->exe ? strcmp(p, l->exe) == 0 : !l->maps_seen;
    if (is_agent_path(p))
        stoke_u64map_put(&l->agent_modules, m.id, 1);
    stoke_symbolizer_add_module(l->symbolizer, &m);
    l->maps_seen = 1;
    free(p);
    return 0;
}

static int on_thread(struct loader *l, struct stoke_fields *f)
{
    uint64_t tid = stoke_field_u(f);
    size_t len;
    const uint8_t *name = stoke_field_bytes(f, &len);
    if (f->bad)
        return -1;
    ensure_process(l);
    if (!l->split_threads)
        return 0;
    char *text = copy_str(name, len);
    stoke_u64map_put(&l->thread_frames, tid, named_frame(l, text, tid, STOKE_KIND_THREAD));
    free(text);
    return 0;
}

static uint32_t thread_frame(struct loader *l, uint64_t tid)
{
    uint32_t frame;
    if (stoke_u64map_get(&l->thread_frames, tid, &frame))
        return frame;
    const char *name = tid == summary(l)->pid ? summary(l)->comm : "thread";
    frame = named_frame(l, name, tid, STOKE_KIND_THREAD);
    stoke_u64map_put(&l->thread_frames, tid, frame);
    return frame;
}

/* --- STACK ---------------------------------------------------------------- */

/* Decodes the frames of a STACK record (leaf first); returns how many, or
 * -1 when the record is damaged. */
static int decode_addresses(struct stoke_fields *f, struct code_address *out)
{
    uint64_t n = stoke_field_u(f);
    uint64_t module = UINT64_MAX, offset = 0;
    if (n > MAX_RECORD_FRAMES)
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t next_module = stoke_field_u(f);
        int64_t value = stoke_field_s(f);
        offset = next_module == module ? offset + (uint64_t)value : (uint64_t)value;
        module = next_module;
        out[i] = (struct code_address){module, offset};
    }
    return f->bad ? -1 : (int)n;
}

/* Appends frame, which was at symbolizer position at - 1 (0: a frame
 * that stands for no code of its own). */
static void push_frame_at(struct loader *l, uint32_t frame, uint32_t at)
{
    l->frames = stoke_grow(l->frames, &l->frames_cap, l->nframes + 1, sizeof *l->frames);
    l->frame_at = stoke_grow(l->frame_at, &l->frame_at_cap, l->nframes + 1,
                             sizeof *l->frame_at);
    l->frame_at[l->nframes] = at;
    l->frames[l->nframes++] = frame;
}

static void push_frame(struct loader *l, uint32_t frame)
{
    push_frame_at(l, frame, 0);
}

/* How many of addresses[0..n) (leaf first) are the agent's, from the leaf. */
static int agent_leaf_run(struct loader *l, const struct code_address *addresses, int n)
{
    int run = 0;
    while (run < n && is_agent_module(l, addresses[run].module))
        run++;
    return run;
}

/* Appends the frames of addresses[0..n) (leaf first) to the pool, root
 * first: walking from the outermost address, each address's inline chain
 * from its outer function in. Every address but the leaf is a return
 * address; with all_returns the leaf is one too. The agent's code shows as
 * one AGENT_FRAME where the sample was taken in it, and not at all where
 * it only called on (its interposed malloc calling libc's): the program's
 * stack as it would be without stoke. */
static void symbolize_addresses(struct loader *l, const struct code_address *addresses, int n,
                                int all_returns)
{
    int agent_leaf = agent_leaf_run(l, addresses, n);
    for (int i = n - 1; i >= agent_leaf; i--) {
        if (is_agent_module(l, addresses[i].module))
            continue;
        const uint32_t *frames;
        uint32_t first;
        size_t count = stoke_symbolize(l->symbolizer, addresses[i].module, addresses[i].offset,
                                       i > 0 || all_returns, &frames, &first);
        for (size_t j = count; j-- > 0;)
            push_frame_at(l, frames[j], first + (uint32_t)j + 1);
    }
    if (agent_leaf)
        push_frame(l, synthetic_frame(l, AGENT_FRAME, STOKE_KIND_LIBRARY));
}

static int on_stack(struct loader *l, struct stoke_fields *f)
{
    uint64_t id = stoke_field_u(f), flags = stoke_field_u(f);
    int n = decode_addresses(f, l->addresses);
    if (n < 0 || id >= MAX_STACK_ID)
        return -1;
    ensure_process(l);
    size_t old_cap = l->stacks_cap;
    l->stacks = stoke_grow(l->stacks, &l->stacks_cap, id + 1, sizeof *l->stacks);
    memset(l->stacks + old_cap, 0, (l->stacks_cap - old_cap) * sizeof *l->stacks);
    if (l->stacks[id].defined)
        return 0; /* ids are never redefined; the first definition stands */
    size_t start = l->nframes;
    if (flags & (STOKE_STACK_TRUNCATED | STOKE_STACK_PARTIAL))
        push_frame(l, synthetic_frame(l, STOKE_INCOMPLETE_STACK, STOKE_KIND_UNKNOWN));
    symbolize_addresses(l, l->addresses, n, (flags & STOKE_STACK_CALLERS) != 0);
    l->stacks[id] = (struct trace_stack){(uint32_t)start, (uint32_t)(l->nframes - start), 1};
    return 0;
}

/* --- the kind of the profile ---------------------------------------------- */

/* Checks this file's kind against the profile's, once per file: the first
 * file loaded sets the profile's kind. Returns 0, or -1 when the kinds
 * differ (then the reading stops and the file is refused). */
static int settle_kind(struct loader *l, int kind)
{
    if (l->kind_settled)
        return 0;
    l->kind_settled = 1;
    int profile_has_files = l->proc != NO_PROCESS && l->proc > 0;
    if (profile_has_files && l->profile->kind != kind) {
        l->refused = 1;
        return -1;
    }
    if (kind == STOKE_PROFILE_HEAP)
        stoke_make_heap_profile(l->profile);
    else
        l->profile->kind = STOKE_PROFILE_CPU;
    return 0;
}

/* --- SAMPLES -------------------------------------------------------------- */

/* Puts the frames of trace stack ts (NULL: not defined) as sampled in a
 * thread (UINT32_MAX: none) in l->scratch, root first, and where each was
 * in l->scratch_at; returns how many. */
static size_t assemble_stack(struct loader *l, uint32_t thread, const struct trace_stack *ts)
{
    static const struct stoke_position nowhere = {.file = ""};
    size_t n = 0, most = 3 + (ts ? ts->len : 0);
    l->scratch = stoke_grow(l->scratch, &l->scratch_cap, most, sizeof *l->scratch);
    l->scratch_at = stoke_grow(l->scratch_at, &l->scratch_at_cap, most, sizeof *l->scratch_at);
    l->scratch[n++] = l->root;
    if (thread != UINT32_MAX)
        l->scratch[n++] = thread;
    if (!ts)
        l->scratch[n++] = synthetic_frame(l, "[unknown stack]", STOKE_KIND_UNKNOWN);
    for (size_t i = 0; i < n; i++)
        l->scratch_at[i] = nowhere;
    for (uint32_t i = 0; ts && i < ts->len; i++) {
        uint32_t at = l->frame_at[ts->start + i];
        l->scratch_at[n] = at ? *stoke_symbolizer_position(l->symbolizer, at - 1) : nowhere;
        l->scratch[n++] = l->frames[ts->start + i];
    }
    return n;
}

/* Trace stack id as sampled in a thread (thread frame UINT32_MAX when
 * threads are not split out, which makes the key the bare id): its profile
 * stack and site, interned on first use. */
static struct interned_stack profile_stack(struct loader *l, uint32_t thread, uint64_t id)
{
    uint64_t key = ((uint64_t)(thread + 1u) << 32) | id;
    uint32_t index;
    if (stoke_u64map_get(&l->profile_stacks, key, &index))
        return l->interned[index];
    const struct trace_stack *ts = id < l->stacks_cap && l->stacks[id].defined ? &l->stacks[id]
                                                                               : NULL;
    size_t n = assemble_stack(l, thread, ts);
    struct interned_stack made = {stoke_profile_stack(l->profile, l->scratch, n), NO_SITE};
    if (!l->heap_timeline)
        made.site = stoke_site(l->profile, made.stack, l->scratch_at);
    l->interned = stoke_grow(l->interned, &l->interned_cap, l->ninterned + 1, sizeof *l->interned);
    l->interned[l->ninterned] = made;
    stoke_u64map_put(&l->profile_stacks, key, (uint32_t)l->ninterned++);
    return made;
}

/* The wall-clock time of a sample time_us after its process started. */
static uint64_t sample_time_ns(const struct stoke_process_summary *s, uint64_t time_us)
{
    return s->start_realtime_ns + time_us * 1000;
}

/* Whether weight more periods keep the trace within MAX_TRACE_SAMPLED_NS (at
 * the longest period when the trace names none). */
static int weight_fits(struct loader *l, uint64_t weight)
{
    uint64_t period = summary(l)->period_ns ? summary(l)->period_ns : STOKE_MAX_PERIOD_NS;
    return l->weight_total + weight <= MAX_TRACE_SAMPLED_NS / period;
}

static int on_samples(struct loader *l, struct stoke_fields *f)
{
    uint64_t tid = stoke_field_u(f), time_us = stoke_field_u(f), count = stoke_field_u(f);
    if (f->bad || l->heap_seen)
        return -1; /* a snapshot holds no samples */
    if (l->heap_timeline)
        return 0;
    ensure_process(l);
    if (settle_kind(l, STOKE_PROFILE_CPU))
        return 0;
    uint32_t thread = l->split_threads ? thread_frame(l, tid) : UINT32_MAX;
    struct stoke_process_summary *s = summary(l);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t id = stoke_field_u(f), delta_us = stoke_field_u(f);
        uint64_t weight_less_one = stoke_field_u(f);
        if (f->bad || id >= MAX_STACK_ID || weight_less_one >= STOKE_MAX_SAMPLE_WEIGHT ||
            !weight_fits(l, weight_less_one + 1))
            return -1;
        int64_t weight = (int64_t)weight_less_one + 1;
        time_us += delta_us;
        struct interned_stack stack = profile_stack(l, thread, id);
        struct stoke_sample sample = {.time_ns = sample_time_ns(s, time_us),
                                      .stack = stack.stack, .process = (uint32_t)l->proc,
                                      .tid = (uint32_t)tid, .weight = (uint32_t)weight,
                                      .site = site_number(stack)};
        stoke_profile_add_sample(l->profile, &sample);
        s->samples++;
        l->weight_total += (uint64_t)weight;
    }
    if (time_us > l->last_time_us)
        l->last_time_us = time_us;
    return 0;
}

/* --- HEAP_TOTALS, HEAP_GROWTH: the live heap over time ------------------- */

/* The trace joins the profile as a heap profile, once; 0 when it may. */
static int join_as_heap_timeline(struct loader *l)
{
    ensure_process(l);
    return settle_kind(l, STOKE_PROFILE_HEAP) == 0 && !l->refused ? 0 : -1;
}

static int on_heap_totals(struct loader *l, struct stoke_fields *f)
{
    uint64_t time_us = stoke_field_u(f);
    struct stoke_heap_moment m = {0};
    m.live_bytes = stoke_field_u(f);
    m.live_objects = stoke_field_u(f);
    m.alloc_bytes = stoke_field_u(f);
    m.alloc_objects = stoke_field_u(f);
    if (f->bad)
        return -1;
    if (!l->heap_timeline || join_as_heap_timeline(l))
        return 0;
    m.time_ns = sample_time_ns(summary(l), time_us);
    m.process = (uint32_t)l->proc;
    stoke_profile_add_heap_moment(l->profile, &m);
    return 0;
}

/* Adds a change to what the timeline said of its stack. */
static void heap_said_add(struct heap_said *h, const struct stoke_heap_change *c)
{
    uint32_t i;
    if (!stoke_u64map_get(&h->index, c->stack, &i)) {
        h->stacks = stoke_grow(h->stacks, &h->cap, h->n + 1, sizeof *h->stacks);
        i = (uint32_t)h->n++;
        h->stacks[i] = (struct stoke_heap_change){.stack = c->stack};
        stoke_u64map_put(&h->index, c->stack, i);
    }
    h->stacks[i].live_bytes += c->live_bytes;
    h->stacks[i].live_objects += c->live_objects;
}

/* A later part starts at time_ns: what the earlier ones said of each stack
 * is taken back, as its first HEAP_GROWTH says it all again. */
static void heap_said_restart(struct loader *l, uint64_t time_ns)
{
    struct heap_said *h = &l->heap_said;
    for (size_t i = 0; i < h->n; i++) {
        struct stoke_heap_change *said = &h->stacks[i];
        if (!said->live_bytes && !said->live_objects)
            continue;
        struct stoke_heap_change c = {time_ns, said->stack, -said->live_bytes,
                                      -said->live_objects};
        stoke_profile_add_heap_change(l->profile, &c);
        said->live_bytes = said->live_objects = 0;
    }
}

static void heap_said_free(struct heap_said *h)
{
    stoke_u64map_free(&h->index);
    free(h->stacks);
}

/* A change larger than any heap (MAX_HEAP_TOTAL) is damage. */
static int change_fits(int64_t v)
{
    return v <= (int64_t)MAX_HEAP_TOTAL && v >= -(int64_t)MAX_HEAP_TOTAL;
}

static int on_heap_growth(struct loader *l, struct stoke_fields *f)
{
    uint64_t time_us = stoke_field_u(f), count = stoke_field_u(f);
    if (f->bad)
        return -1;
    if (!l->heap_timeline || join_as_heap_timeline(l))
        return 0;
    uint64_t time_ns = sample_time_ns(summary(l), time_us);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t id = stoke_field_u(f);
        int64_t bytes = stoke_field_s(f), objects = stoke_field_s(f);
        if (f->bad || id >= MAX_STACK_ID || !change_fits(bytes) || !change_fits(objects))
            return -1;
        struct stoke_heap_change c = {time_ns, profile_stack(l, UINT32_MAX, id).stack, bytes,
                                      objects};
        stoke_profile_add_heap_change(l->profile, &c);
        heap_said_add(&l->heap_said, &c);
    }
    return 0;
}

/* --- HEAP, HEAP_STACK ---------------------------------------------------- */

static int on_heap(struct loader *l, struct stoke_fields *f)
{
    struct stoke_heap_summary heap;
    if (stoke_decode_heap(f, &heap) || l->kind_settled)
        return -1; /* one HEAP per snapshot, and no samples before it */
    ensure_process(l);
    if (settle_kind(l, STOKE_PROFILE_HEAP))
        return 0;
    l->heap_seen = 1;
    struct stoke_process_summary *s = summary(l);
    s->heap = heap;
    s->duration_us = heap.time_us;
    return 0;
}

/* Adds a HEAP_STACK's values to the snapshot's totals; returns -1 (damage)
 * when a total would pass MAX_HEAP_TOTAL. */
static int add_to_heap_totals(struct loader *l, const uint64_t *values)
{
    for (size_t i = 0; i < STOKE_HEAP_NVALUES; i++)
        if (values[i] > MAX_HEAP_TOTAL - l->heap_totals[i])
            return -1;
    for (size_t i = 0; i < STOKE_HEAP_NVALUES; i++)
        l->heap_totals[i] += values[i];
    return 0;
}

static int on_heap_stack(struct loader *l, struct stoke_fields *f)
{
    uint64_t id = stoke_field_u(f);
    uint64_t read[STOKE_HEAP_NVALUES];
    int64_t values[STOKE_HEAP_NVALUES];
    for (size_t i = 0; i < STOKE_HEAP_NVALUES; i++)
        read[i] = stoke_field_u(f);
    if (f->bad || id >= MAX_STACK_ID || !l->heap_seen || add_to_heap_totals(l, read))
        return -1;
    for (size_t i = 0; i < STOKE_HEAP_NVALUES; i++)
        values[i] = (int64_t)read[i]; /* at most MAX_HEAP_TOTAL */
    struct interned_stack stack = profile_stack(l, UINT32_MAX, id);
    stoke_profile_add_to_stack(l->profile, stack.stack, values);
    if (stack.site != NO_SITE)
        stoke_site_add(l->profile, stack.site, values);
    l->heap_stacks++;
    return 0;
}

/* --- END, NOTE ------------------------------------------------------------ */

static int on_end(struct loader *l, struct stoke_fields *f)
{
    stoke_field_u(f); /* samples_taken: the samples read are counted instead */
    uint64_t lost = stoke_field_u(f), handler_ns = stoke_field_u(f);
    uint64_t duration_us = stoke_field_u(f);
    if (f->bad)
        return -1;
    ensure_process(l);
    struct stoke_process_summary *s = summary(l);
    s->samples_lost = lost;
    s->handler_ns = handler_ns;
    s->duration_us = duration_us;
    s->ended_cleanly = 1;
    return 0;
}

static int on_note(struct loader *l, struct stoke_fields *f)
{
    uint64_t level = stoke_field_u(f);
    size_t len;
    const uint8_t *text = stoke_field_bytes(f, &len);
    if (f->bad)
        return -1;
    if (l->files_read)
        return 0; /* a later part repeats the first's notes */
    if (l->notes++ < MAX_NOTES_SHOWN && !l->live)
        stoke_warn(l->path, "%s%.*s", level ? "warning: " : "", (int)len, (const char *)text);
    return 0;
}

static void warn_notes_not_shown(const struct loader *l)
{
    if (l->notes > MAX_NOTES_SHOWN && !l->live)
        stoke_warn(l->path, "... and %" PRIu64 " more notes", l->notes - MAX_NOTES_SHOWN);
}

/* --- PART, NEXT_PART ------------------------------------------------------ */

static int on_part(struct loader *l, struct stoke_fields *f)
{
    uint64_t part = stoke_field_u(f), time_us = stoke_field_u(f);
    if (f->bad || part < 2 || part > UINT32_MAX || l->proc == NO_PROCESS)
        return -1;
    struct stoke_process_summary *s = summary(l);
    if (!s->parts) { /* the oldest part kept: the ones before it were removed */
        s->first_part = (uint32_t)part;
        s->kept_from_us = time_us;
    } else if (part != (uint64_t)l->part + 1) {
        l->chain_broken = 1;
        return 0;
    } else if (l->heap_timeline) {
        heap_said_restart(l, sample_time_ns(s, time_us));
    }
    l->part = (uint32_t)part;
    return 0;
}

static int on_next_part(struct loader *l, struct stoke_fields *f)
{
    size_t len;
    const uint8_t *name = stoke_field_bytes(f, &len);
    if (f->bad || memchr(name, '\0', len))
        return -1;
    free(l->next_part);
    l->next_part = copy_str(name, len);
    return 0;
}

/* --- driving the reader --------------------------------------------------- */

static int on_record(void *ctx, unsigned type, const uint8_t *payload, size_t len)
{
    struct loader *l = ctx;
    struct stoke_fields f = stoke_fields_of(payload, len);
    int rc = 0;
    switch (type) {
    case STOKE_REC_PROCESS: rc = on_process(l, &f); break;
    case STOKE_REC_MAP: rc = on_map(l, &f); break;
    case STOKE_REC_UNMAP: break; /* module ids are never reused: nothing to forget */
    case STOKE_REC_THREAD: rc = on_thread(l, &f); break;
    case STOKE_REC_STACK: rc = on_stack(l, &f); break;
    case STOKE_REC_SAMPLES: rc = on_samples(l, &f); break;
    case STOKE_REC_END: rc = on_end(l, &f); break;
    case STOKE_REC_NOTE: rc = on_note(l, &f); break;
    case STOKE_REC_HEAP: rc = on_heap(l, &f); break;
    case STOKE_REC_HEAP_STACK: rc = on_heap_stack(l, &f); break;
    case STOKE_REC_HEAP_TOTALS: rc = on_heap_totals(l, &f); break;
    case STOKE_REC_HEAP_GROWTH: rc = on_heap_growth(l, &f); break;
    case STOKE_REC_PART: rc = on_part(l, &f); break;
    case STOKE_REC_NEXT_PART: rc = on_next_part(l, &f); break;
    default: break; /* a newer minor version's record: skipped by its length */
    }
    if (rc < 0)
        l->damaged_records++;
    return l->refused || l->chain_broken;
}

/* --- JIT_MAP (the first pass) ---------------------------------------------- */

/* Gathers the trace's perf map text, at most STOKE_MAX_JIT_MAP_BYTES. */
static int on_jit_map_record(void *ctx, unsigned type, const uint8_t *payload, size_t len)
{
    struct loader *l = ctx;
    if (type != STOKE_REC_JIT_MAP)
        return 0;
    struct stoke_fields f = stoke_fields_of(payload, len);
    size_t text_len;
    stoke_field_u(&f); /* time_us */
    const uint8_t *text = stoke_field_bytes(&f, &text_len);
    if (f.bad || l->jit_map_bytes + text_len > STOKE_MAX_JIT_MAP_BYTES)
        return 0;
    if (!l->jit_map)
        l->jit_map = stoke_perfmap_new();
    stoke_perfmap_add_text(l->jit_map, (const char *)text, text_len);
    l->jit_map_bytes += text_len;
    return 0;
}

static void read_jit_map(struct loader *l)
{
    struct stoke_read_status st;
    char err[512];
    l->jit_map_bytes = 0;
    stoke_read_trace(l->part_path, on_jit_map_record, l, &st, err, sizeof err); /* the next
                                                                               * pass says */
    l->jit_map = stoke_perfmap_finish(l->jit_map);
    if (l->symbolizer && l->jit_map) { /* a later part: its map holds the first's */
        stoke_symbolizer_set_jit_map(l->symbolizer, l->jit_map);
        l->jit_map = NULL;
    }
}

static void finish_summary(struct loader *l, const struct stoke_read_status *st)
{
    struct stoke_process_summary *s = summary(l);
    s->bytes_lost += st->bytes_lost;
    s->parts = l->files_read;
    if (!s->first_part)
        s->first_part = 1;
    if (!s->ended_cleanly && l->last_time_us > s->duration_us)
        s->duration_us = l->last_time_us;
    if (s->clock == STOKE_CLOCK_CPU && !l->heap_seen)
        s->cpu_ns = l->weight_total * s->period_ns;
}

static void warn_damage(struct loader *l, const struct stoke_read_status *st)
{
    const char *state = st->corrupted ? "corrupted" : "truncated";
    if (l->live && !st->corrupted)
        return; /* its last frame is still being written */
    if (st->damaged && l->heap_seen)
        stoke_warn(l->part_path,
                   "snapshot is %s after %" PRIu64 " allocation stacks; the last %" PRIu64
                   " bytes could not be read",
                   state, l->heap_stacks, st->bytes_lost);
    else if (st->damaged)
        stoke_warn(l->part_path,
                   "trace is %s after %" PRIu64 " samples; the last %" PRIu64
                   " bytes could not be read",
                   state, summary(l)->samples, st->bytes_lost);
    if (l->damaged_records)
        stoke_warn(l->part_path, "%" PRIu64 " damaged records skipped", l->damaged_records);
    l->damaged_records = 0;
}

static void free_loader(struct loader *l)
{
    stoke_symbolizer_free(l->symbolizer);
    stoke_perfmap_free(l->jit_map);
    stoke_u64map_free(&l->agent_modules);
    stoke_u64map_free(&l->thread_frames);
    stoke_u64map_free(&l->profile_stacks);
    free(l->interned);
    free(l->stacks);
    free(l->frames);
    free(l->frame_at);
    free(l->scratch);
    free(l->scratch_at);
    free(l->exe);
    free(l->next_part);
    heap_said_free(&l->heap_said);
    if (l->part_path != l->path)
        free((char *)l->part_path);
}

/* --- the parts of a trace --------------------------------------------------- */

static void finish_part(struct loader *l, const struct stoke_read_status *st)
{
    l->files_read++;
    finish_summary(l, st);
    warn_damage(l, st);
}

/* Before the next part: its stacks are its own, from id 0. */
static void forget_part(struct loader *l, char *next_path)
{
    free(l->stacks);
    l->stacks = NULL;
    l->stacks_cap = 0;
    l->nframes = 0;
    stoke_u64map_free(&l->profile_stacks);
    memset(&l->profile_stacks, 0, sizeof l->profile_stacks);
    l->ninterned = 0;
    free(l->next_part);
    l->next_part = NULL;
    if (l->part_path != l->path)
        free((char *)l->part_path);
    l->part_path = next_path;
}

/* Reads on while each part names the next. A part that cannot be read, or
 * is not this trace's next, ends the trace where it is, with a warning
 * (quietly while live: the next part may not have its header yet). */
static void read_later_parts(struct loader *l)
{
    struct stoke_read_status st = {.damaged = 0};
    while (l->next_part && !st.damaged) {
        char err[512], *next = stoke_part_beside(l->part_path, l->next_part);
        if (!next) {
            stoke_warn(l->part_path, "names '%s' as its next part, which is no trace file "
                       "name; the trace ends here", l->next_part);
            return;
        }
        char *previous = stoke_xstrdup(l->part_path);
        forget_part(l, next);
        read_jit_map(l);
        int rc = stoke_read_trace(next, on_record, l, &st, err, sizeof err);
        if (rc == 0 && l->chain_broken)
            stoke_warn(next, "is not the part after %s; the trace ends there", previous);
        else if (rc && !l->live)
            stoke_warn(previous, "%s; the trace ends at this part", err);
        free(previous);
        if (rc || l->chain_broken)
            return;
        finish_part(l, &st);
    }
}

/* Takes back the process summary of a file the profile refused. */
static void refuse_file(struct loader *l, char *err, size_t errlen)
{
    snprintf(err, errlen,
             l->profile->kind == STOKE_PROFILE_HEAP
                 ? "%s is a CPU trace and cannot join heap snapshots in one profile; "
                   "report it on its own"
                 : "%s is a heap snapshot and cannot join CPU traces in one profile; "
                   "report it on its own",
             l->path);
    stoke_profile_remove_last_process(l->profile);
    l->proc = NO_PROCESS;
}

int stoke_load_trace(struct stoke_profile *p, const char *path,
                     const struct stoke_load_options *opt, char *err, size_t errlen)
{
    struct loader l = {.profile = p, .path = path, .proc = NO_PROCESS};
    struct stoke_read_status st;
    l.split_threads = opt && opt->split_threads;
    l.merge_processes = opt && opt->merge_processes;
    l.keep_tiers = opt && opt->keep_tiers;
    l.live = opt && opt->live;
    l.heap_timeline = opt && opt->heap_timeline;
    l.part_path = path;
    l.part = stoke_part_number(path);
    read_jit_map(&l);
    int rc = stoke_read_trace(path, on_record, &l, &st, err, errlen);
    if (rc == 0 && l.proc != NO_PROCESS) /* neither samples nor HEAP: a CPU trace */
        settle_kind(&l, l.heap_timeline ? STOKE_PROFILE_HEAP : STOKE_PROFILE_CPU);
    if (rc == 0 && l.refused) {
        refuse_file(&l, err, errlen);
        rc = -1;
    } else if (rc == 0 && l.proc == NO_PROCESS) {
        snprintf(err, errlen,
                 st.damaged ? "%s: trace is damaged before its first record; nothing to report"
                            : "%s: trace holds no records (the process ended before stoke "
                              "wrote any); record again",
                 path);
        rc = -1;
    }
    warn_notes_not_shown(&l);
    if (rc == 0) {
        finish_part(&l, &st);
        if (!(opt && opt->one_part))
            read_later_parts(&l);
    }
    if (l.symbolizer && !l.live)
        stoke_recording_names_settle(path, stoke_symbolizer_names_used(l.symbolizer));
    free_loader(&l);
    return rc;
}
