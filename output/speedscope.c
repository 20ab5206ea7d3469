/*
 * speedscope.c - writes speedscope's JSON file format; see speedscope.h.
 *
 * Owns: grouping rows into speedscope profiles (by process, or thread) and
 * the units of their weights.
 * Never: writes a string unescaped, or changes the profile.
 */
#define _GNU_SOURCE /* qsort_r */
#include "speedscope.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "stack_parts.h"

#define SCHEMA_URL "https://www.speedscope.app/file-format-schema.json"

/* One row to write, and the speedscope profile it belongs to. */
struct entry {
    uint32_t row;
    uint32_t group; /* the thread frame, else the process frame, else UINT32_MAX */
    struct stack_parts parts;
};

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
        e->group = e->parts.thread != UINT32_MAX ? e->parts.thread : e->parts.root;
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

static void write_group_name(FILE *out, const struct stoke_profile *p, const struct entry *e)
{
    if (e->group == UINT32_MAX) {
        escape_json_string(out, "all samples");
        return;
    }
    if (e->parts.thread == UINT32_MAX || e->parts.root == UINT32_MAX) {
        escape_json_string(out, p->frames[e->group].name);
        return;
    }
    char name[1024]; /* "thread (tid) in comm (pid)" */
    snprintf(name, sizeof name, "%s in %s", p->frames[e->parts.thread].name,
             p->frames[e->parts.root].name);
    escape_json_string(out, name);
}

/* Writes entries[0..n) (one group) as one sampled profile. */
static void write_profile(FILE *out, const struct stoke_profile *p, const struct entry *entries,
                          size_t n, size_t value_index)
{
    int64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += weight_of(p, &entries[i], value_index);
    fputs("{\"type\":\"sampled\",\"name\":", out);
    write_group_name(out, p, &entries[0]);
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

int stoke_write_speedscope(FILE *out, const struct stoke_report *r)
{
    const struct stoke_profile *p = r->tabs[0].profile;
    size_t value_index = r->value_index;
    if (value_index >= p->nvalues)
        return -1;
    struct entry *entries = stoke_xmalloc((p->nrows ? p->nrows : 1) * sizeof *entries);
    size_t n = collect(p, value_index, entries);
    fputs("{\"$schema\":\"" SCHEMA_URL "\",\"exporter\":\"stoke\",\"name\":", out);
    escape_json_string(out, stoke_report_title(r));
    fputs(",\"activeProfileIndex\":0,", out);
    write_frames(out, p);
    fputs(",\"profiles\":[", out);
    for (size_t i = 0, groups = 0; i < n; groups++) {
        size_t j = i + 1;
        while (j < n && entries[j].group == entries[i].group)
            j++;
        if (groups)
            putc(',', out);
        write_profile(out, p, entries + i, j - i, value_index);
        i = j;
    }
    fputs("]}\n", out);
    free(entries);
    fflush(out);
    return ferror(out) ? -1 : 0;
}
