/*
 * speedscope.c - writes speedscope's JSON file format; see speedscope.h.
 *
 * Owns: grouping rows or samples into speedscope profiles (by process, or
 * thread), the units of their weights, and the events of a profile in time
 * order: each sample stands for the span of weight x period that ends when
 * it was taken (cut where the thread's previous sample ended), frames
 * opening and closing where consecutive stacks differ and every frame
 * closed across a span without samples.
 * Never: writes a string unescaped, or changes the profile.
 */
#define _GNU_SOURCE /* qsort_r */
#include "speedscope.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "sample_times.h"
#include "stack_parts.h"

#define SCHEMA_URL "https://www.speedscope.app/file-format-schema.json"

/* One row to write, and the speedscope profile it belongs to. */
struct entry {
    uint32_t group; /* the thread frame, else the process frame, else UINT32_MAX;
                     * first, as in every entry for_each_group walks */
    uint32_t row;
    struct stack_parts parts;
};

/* Writes entries[0..n) (one group) as one profile. */
typedef void profile_writer(FILE *out, const struct stoke_profile *p, const void *entries,
                            size_t n, size_t value_index);

/* Calls write for each run of entries (of size bytes each, sorted by the
 * group they start with) of one group, writing commas between. */
static void for_each_group(FILE *out, const struct stoke_profile *p, const void *entries,
                           size_t size, size_t n, size_t value_index, profile_writer *write)
{
    const char *at = entries;
    for (size_t i = 0; i < n;) {
        uint32_t group, next;
        memcpy(&group, at + i * size, sizeof group);
        size_t j = i + 1;
        while (j < n && (memcpy(&next, at + j * size, sizeof next), next == group))
            j++;
        if (i)
            putc(',', out);
        write(out, p, at + i * size, j - i, value_index);
        i = j;
    }
}

/* The profile a stack's samples go to: its thread frame, else its process
 * frame, else UINT32_MAX. */
static uint32_t group_of(const struct stack_parts *parts)
{
    return parts->thread != UINT32_MAX ? parts->thread : parts->root;
}

static int by_group(const void *a, const void *b, void *unused)
{
    const struct entry *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static const char *unit_of(const struct stoke_profile *p, size_t value_index)
{
    if (p->kind == STOKE_PROFILE_CPU)
        return p->period_ns ? "nanoseconds" : "none";
    return strcmp(p->value_units[value_index], "bytes") == 0 ? "bytes" : "none";
}

static int64_t weight_of(const struct stoke_profile *p, const struct entry *e, size_t value_index)
{
    int64_t v = p->rows[e->row].values[value_index];
    if (p->kind == STOKE_PROFILE_CPU && p->period_ns)
        v = samples_time_ns(v, sample_period_ns(p, e->parts.process));
    return v;
}

/* The rows with a value and code frames, sorted by group; returns how many. */
static size_t collect(const struct stoke_profile *p, size_t value_index, struct entry *out)
{
    size_t n = 0;
    for (size_t r = 0; r < p->nrows; r++) {
        struct entry *e = &out[n];
        e->row = (uint32_t)r;
        stack_parts_of(p, p->rows[r].stack, &e->parts);
        if (!p->rows[r].values[value_index] || !e->parts.ncode)
            continue;
        e->group = group_of(&e->parts);
        n++;
    }
    qsort_r(out, n, sizeof *out, by_group, NULL);
    return n;
}

static void write_frames(FILE *out, const struct stoke_profile *p)
{
    fputs("\"shared\":{\"frames\":[", out);
    for (size_t i = 0; i < p->nframes; i++) {
        const struct stoke_frame *f = &p->frames[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        escape_json_string(out, f->name);
        if (*f->file) {
            fputs(",\"file\":", out);
            escape_json_string(out, f->file);
        }
        if (f->line)
            fprintf(out, ",\"line\":%" PRIu32, f->line);
        putc('}', out);
    }
    fputs("]}", out);
}

static void write_group_name(FILE *out, const struct stoke_profile *p,
                             const struct stack_parts *parts)
{
    uint32_t group = group_of(parts);
    if (group == UINT32_MAX) {
        escape_json_string(out, "all samples");
        return;
    }
    if (parts->thread == UINT32_MAX || parts->root == UINT32_MAX) {
        escape_json_string(out, p->frames[group].name);
        return;
    }
    char name[1024]; /* "thread (tid) in comm (pid)" */
    snprintf(name, sizeof name, "%s in %s", p->frames[parts->thread].name,
             p->frames[parts->root].name);
    escape_json_string(out, name);
}

/* Writes entries[0..n) (one group, struct entry) as one sampled profile. */
static void write_sampled_profile(FILE *out, const struct stoke_profile *p, const void *group,
                                  size_t n, size_t value_index)
{
    const struct entry *entries = group;
    int64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += weight_of(p, &entries[i], value_index);
    fputs("{\"type\":\"sampled\",\"name\":", out);
    write_group_name(out, p, &entries[0].parts);
    fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRId64 ",\"samples\":[",
            unit_of(p, value_index), total);
    for (size_t i = 0; i < n; i++) {
        const struct stack_parts *s = &entries[i].parts;
        fputs(i ? ",[" : "[", out);
        for (size_t j = 0; j < s->ncode; j++)
            fprintf(out, j ? ",%" PRIu32 : "%" PRIu32, s->code[j]);
        putc(']', out);
    }
    fputs("],\"weights\":[", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, i ? ",%" PRId64 : "%" PRId64, weight_of(p, &entries[i], value_index));
    fputs("]}", out);
}

/* --- evented profiles: the samples of a CPU profile in time order -------- */

/* A sample to write: the profile it goes to (one per thread: a thread's
 * samples never overlap in time), and the span it stands for, in ns since
 * the recording started. */
struct timed_entry {
    uint32_t group; /* first: see for_each_group */
    uint32_t stack;
    uint64_t start_ns, end_ns;
    uint32_t process, tid;
};

static int by_thread_then_time(const void *a, const void *b)
{
    const struct timed_entry *x = a, *y = b;
    if (x->process != y->process)
        return x->process < y->process ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return (x->end_ns > y->end_ns) - (x->end_ns < y->end_ns);
}

/* Numbers the threads of entries sorted by thread: their groups. */
static void number_threads(struct timed_entry *entries, size_t n)
{
    for (size_t i = 0, group = 0; i < n; i++) {
        if (i && (entries[i].process != entries[i - 1].process ||
                  entries[i].tid != entries[i - 1].tid))
            group++;
        entries[i].group = (uint32_t)group;
    }
}

/* The samples with code frames, by thread and time; returns how many. */
static size_t collect_timed(const struct stoke_profile *p, struct timed_entry *out)
{
    uint64_t recording_start = stoke_profile_start_ns(p);
    size_t n = 0;
    for (size_t i = 0; i < p->samples.n; i++) {
        const struct stoke_sample *s = &p->samples.at[i];
        struct stack_parts parts;
        stack_parts_of(p, s->stack, &parts);
        if (!parts.ncode)
            continue;
        uint64_t end = s->time_ns - recording_start;
        int64_t span = samples_time_ns(s->weight, sample_period_ns(p, parts.process));
        uint64_t start = end > (uint64_t)span ? end - (uint64_t)span : 0;
        out[n++] = (struct timed_entry){0, s->stack, start, end, s->process, s->tid};
    }
    qsort(out, n, sizeof *out, by_thread_then_time);
    number_threads(out, n);
    return n;
}

/* The frames open in the profile being written, outermost first, and when
 * the last sample's span ended. */
struct open_frames {
    const uint32_t *frames;
    size_t n;
    uint64_t end_ns;
    int events; /* events written so far */
};

static void write_event(FILE *out, struct open_frames *o, char type, uint32_t frame,
                        uint64_t at)
{
    fprintf(out, "%s{\"type\":\"%c\",\"frame\":%" PRIu32 ",\"at\":%" PRIu64 "}",
            o->events++ ? "," : "", type, frame, at);
}

/* Closes the open frames, leaf first, until keep are left. */
static void close_frames(FILE *out, struct open_frames *o, size_t keep, uint64_t at)
{
    while (o->n > keep)
        write_event(out, o, 'C', o->frames[--o->n], at);
}

/* The events of one sample's span: after a span without samples every
 * frame closes; then the frames it does not share with the frames open
 * close, and its own open. A span the previous one covered is left out. */
static void write_sample_events(FILE *out, struct open_frames *o, const struct stack_parts *s,
                                uint64_t start, uint64_t end)
{
    if (start > o->end_ns)
        close_frames(out, o, 0, o->end_ns);
    else
        start = o->end_ns;
    if (end <= start)
        return;
    size_t same = 0;
    while (same < o->n && same < s->ncode && o->frames[same] == s->code[same])
        same++;
    close_frames(out, o, same, start);
    for (size_t i = same; i < s->ncode; i++)
        write_event(out, o, 'O', s->code[i], start);
    *o = (struct open_frames){s->code, s->ncode, end, o->events};
}

/* The name of a thread's profile: its thread frame's, else "thread TID in
 * comm (pid)". */
static void write_thread_name(FILE *out, const struct stoke_profile *p,
                              const struct stack_parts *parts, uint32_t tid)
{
    if (parts->thread != UINT32_MAX || parts->root == UINT32_MAX) {
        write_group_name(out, p, parts);
        return;
    }
    char name[1024];
    snprintf(name, sizeof name, "thread %" PRIu32 " in %s", tid, p->frames[parts->root].name);
    escape_json_string(out, name);
}

/* Writes entries[0..n) (one group, struct timed_entry) as one evented
 * profile of value 0. */
static void write_evented_profile(FILE *out, const struct stoke_profile *p, const void *group,
                                  size_t n, size_t value_index)
{
    const struct timed_entry *entries = group;
    (void)value_index;
    struct stack_parts parts;
    stack_parts_of(p, entries[0].stack, &parts);
    fputs("{\"type\":\"evented\",\"name\":", out);
    write_thread_name(out, p, &parts, entries[0].tid);
    fprintf(out, ",\"unit\":\"nanoseconds\",\"startValue\":%" PRIu64 ",\"endValue\":%" PRIu64
                 ",\"events\":[",
            entries[0].start_ns, entries[n - 1].end_ns);
    struct open_frames open = {0};
    for (size_t i = 0; i < n; i++) {
        stack_parts_of(p, entries[i].stack, &parts);
        write_sample_events(out, &open, &parts, entries[i].start_ns, entries[i].end_ns);
    }
    close_frames(out, &open, 0, open.end_ns);
    fputs("]}", out);
}

/* One evented profile per group, of the samples of p in time order. */
static void write_evented_profiles(FILE *out, const struct stoke_profile *p)
{
    struct timed_entry *entries = stoke_xmalloc((p->samples.n ? p->samples.n : 1) *
                                                sizeof *entries);
    size_t n = collect_timed(p, entries);
    for_each_group(out, p, entries, sizeof *entries, n, 0, write_evented_profile);
    free(entries);
}

/* One sampled profile per group, of value value_index of the rows of p. */
static void write_sampled_profiles(FILE *out, const struct stoke_profile *p, size_t value_index)
{
    struct entry *entries = stoke_xmalloc((p->nrows ? p->nrows : 1) * sizeof *entries);
    size_t n = collect(p, value_index, entries);
    for_each_group(out, p, entries, sizeof *entries, n, value_index, write_sampled_profile);
    free(entries);
}

/* A CPU profile read from traces knows when each sample was taken, and
 * speedscope then shows them in time order, gaps included. */
static int has_sample_times(const struct stoke_profile *p, size_t value_index)
{
    return p->kind == STOKE_PROFILE_CPU && value_index == 0 && p->samples.n && p->period_ns;
}

int stoke_write_speedscope(FILE *out, const struct stoke_report *r)
{
    const struct stoke_profile *p = r->tabs[0].profile;
    size_t value_index = r->value_index;
    if (value_index >= p->nvalues)
        return -1;
    fputs("{\"$schema\":\"" SCHEMA_URL "\",\"exporter\":\"stoke\",\"name\":", out);
    escape_json_string(out, stoke_report_title(r));
    fputs(",\"activeProfileIndex\":0,", out);
    write_frames(out, p);
    fputs(",\"profiles\":[", out);
    if (has_sample_times(p, value_index))
        write_evented_profiles(out, p);
    else
        write_sampled_profiles(out, p, value_index);
    fputs("]}\n", out);
    fflush(out);
    return ferror(out) ? -1 : 0;
}
