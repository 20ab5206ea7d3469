/*
 * report_data.c - the report's profiles as the viewer's JSON document.
 *
 * Owns: the document's layout and its version number (js/data.js and
 * tools/report_data.py read it).
 * Never: writes a string unescaped, or one object per frame or per stack.
 */
#include "report_data.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "call_tree.h"
#include "escape.h"
#include "frame_table.h"
#include "json_numbers.h"
#include "line_table.h"
#include "source_snippets.h"
#include "string_pool.h"
#include "timeline_data.h"

#define REPORT_DATA_VERSION 4
#define STRING_RESTART 16 /* every 16th string is written whole */

/* What the tabs share: strings and frames, and per tab the index in the
 * shared frame table of each of its profile's frames; the lines each tab's
 * frames were at, and the source around the hottest. */
struct shared {
    struct string_pool strings;
    struct frame_table frames;
    uint32_t **tab_frames; /* tab_frames[t][f]: shared index of frame f of tab t */
    struct line_table *lines;  /* by tab */
    uint32_t **line_files;     /* line_files[t][i]: string of tab t's line i's file */
    struct source_snippets sources;
    size_t ntabs;
    uint32_t *string_rank; /* index at interning -> index in the sorted pool */
};

static void shared_free(struct shared *s)
{
    string_pool_free(&s->strings);
    frame_table_free(&s->frames);
    for (size_t t = 0; s->tab_frames && t < s->ntabs; t++)
        free(s->tab_frames[t]);
    free(s->tab_frames);
    for (size_t t = 0; s->lines && t < s->ntabs; t++)
        line_table_free(&s->lines[t]);
    for (size_t t = 0; s->line_files && t < s->ntabs; t++)
        free(s->line_files[t]);
    free(s->lines);
    free(s->line_files);
    source_snippets_free(&s->sources);
    free(s->string_rank);
}

static int intern_string(struct string_pool *pool, const char *s, uint32_t *index)
{
    int64_t i = string_pool_intern(pool, s);
    if (i < 0)
        return -1;
    *index = (uint32_t)i;
    return 0;
}

static int intern_frame(struct shared *s, const struct stoke_frame *f, uint32_t *index)
{
    struct frame_key k = {.line = f->line, .column = f->column, .kind = f->kind,
                          .inlined = f->inlined, .tier = f->tier};
    if (intern_string(&s->strings, f->name, &k.name) < 0 ||
        intern_string(&s->strings, f->module, &k.module) < 0 ||
        intern_string(&s->strings, f->file, &k.file) < 0)
        return -1;
    int64_t i = frame_table_intern(&s->frames, &k);
    if (i < 0)
        return -1;
    *index = (uint32_t)i;
    return 0;
}

/* The lines tab t's frames were at, their files interned. */
static int build_lines(struct shared *s, size_t t, const struct stoke_profile *p)
{
    struct line_table *lines = &s->lines[t];
    line_table_build(lines, p);
    s->line_files[t] = malloc((lines->n ? lines->n : 1) * sizeof(uint32_t));
    if (!s->line_files[t])
        return -1;
    for (size_t i = 0; i < lines->n; i++)
        if (intern_string(&s->strings, lines->entries[i].file, &s->line_files[t][i]) < 0)
            return -1;
    return 0;
}

/* The source around the tabs' hottest lines, its files interned. */
static int gather_sources(struct shared *s, const struct stoke_report_tab *tabs, size_t ntabs)
{
    int64_t *totals = malloc((ntabs ? ntabs : 1) * sizeof *totals);
    if (!totals)
        return -1;
    for (size_t t = 0; t < ntabs; t++)
        totals[t] = stoke_profile_total(tabs[t].profile, 0);
    int rc = source_snippets_gather(&s->sources, s->lines, totals, ntabs);
    free(totals);
    for (size_t i = 0; rc == 0 && i < s->sources.nfiles; i++)
        rc = intern_string(&s->strings, s->sources.files[i].path, &s->sources.files[i].string);
    return rc;
}

/* Interns the frames of every tab ("" is string 0), and the files of
 * their lines. */
static int shared_build(struct shared *s, const struct stoke_report_tab *tabs, size_t ntabs)
{
    uint32_t empty;
    string_pool_init(&s->strings);
    frame_table_init(&s->frames);
    memset(&s->sources, 0, sizeof s->sources);
    s->ntabs = ntabs;
    s->string_rank = NULL;
    s->tab_frames = calloc(ntabs ? ntabs : 1, sizeof(*s->tab_frames));
    s->lines = calloc(ntabs ? ntabs : 1, sizeof(*s->lines));
    s->line_files = calloc(ntabs ? ntabs : 1, sizeof(*s->line_files));
    if (!s->tab_frames || !s->lines || !s->line_files ||
        intern_string(&s->strings, "", &empty) < 0)
        return -1;
    for (size_t t = 0; t < ntabs; t++) {
        const struct stoke_profile *p = tabs[t].profile;
        s->tab_frames[t] = malloc((p->nframes ? p->nframes : 1) * sizeof(uint32_t));
        if (!s->tab_frames[t])
            return -1;
        for (size_t f = 0; f < p->nframes; f++)
            if (intern_frame(s, &p->frames[f], &s->tab_frames[t][f]) < 0)
                return -1;
        if (build_lines(s, t, p) < 0)
            return -1;
    }
    if (gather_sources(s, tabs, ntabs) < 0)
        return -1;
    s->string_rank = string_pool_sort(&s->strings);
    return s->string_rank ? 0 : -1;
}

/* A frame table column: a string column's values are pool indices at
 * interning, written as their index in the sorted pool. */
typedef uint64_t frame_field(const struct frame_key *f);

static uint64_t frame_name(const struct frame_key *f) { return f->name; }
static uint64_t frame_module(const struct frame_key *f) { return f->module; }
static uint64_t frame_file(const struct frame_key *f) { return f->file; }
static uint64_t frame_line(const struct frame_key *f) { return f->line; }
static uint64_t frame_kind(const struct frame_key *f) { return f->kind; }
static uint64_t frame_inlined(const struct frame_key *f) { return f->inlined; }
static uint64_t frame_column(const struct frame_key *f) { return f->column; }
static uint64_t frame_tier(const struct frame_key *f) { return f->tier; }

static const struct {
    const char *key;
    frame_field *field;
    int is_string;
} frame_columns[] = {
    {"name", frame_name, 1}, {"module", frame_module, 1}, {"file", frame_file, 1},
    {"line", frame_line, 0}, {"kind", frame_kind, 0},     {"inlined", frame_inlined, 0},
    {"column", frame_column, 0}, {"tier", frame_tier, 0},
};

/* The sorted pool front-coded: string i is the first shared[i] UTF-16 code
 * units of string i - 1 followed by rest[i]; every STRING_RESTART-th string
 * is whole (shared 0), so the viewer decodes any string from the nearest
 * whole one instead of from the first. */
/* The bytes string i shares with string i - 1 (0 at a restart point), and
 * in *units that length in UTF-16 code units. */
static size_t shared_prefix(const struct string_pool *pool, size_t i, size_t *units)
{
    *units = 0;
    if (i % STRING_RESTART == 0)
        return 0;
    return utf8_common_prefix(pool->strings[i - 1], pool->strings[i], units);
}

static void write_strings(FILE *out, const struct string_pool *pool)
{
    size_t units;
    fputs(",\n\"strings\":{\"shared\":[", out);
    for (size_t i = 0; i < pool->count; i++) {
        shared_prefix(pool, i, &units);
        if (i)
            fputc(',', out);
        write_u64(out, units);
    }
    fputs("],\n\"rest\":[", out);
    for (size_t i = 0; i < pool->count; i++) {
        size_t bytes = shared_prefix(pool, i, &units);
        if (i)
            fputs(i % 64 ? "," : ",\n", out);
        escape_json_string(out, pool->strings[i] + bytes);
    }
    fputs("]}", out);
}

/* The shared frame table, one integer array per field. */
static void write_frames(FILE *out, const struct frame_table *frames, const uint32_t *string_rank)
{
    fputs(",\n\"frames\":{", out);
    for (size_t c = 0; c < sizeof(frame_columns) / sizeof(frame_columns[0]); c++) {
        fprintf(out, "%s\"%s\":[", c ? ",\n" : "", frame_columns[c].key);
        for (size_t f = 0; f < frames->count; f++) {
            if (f)
                fputc(',', out);
            uint64_t v = frame_columns[c].field(&frames->frames[f]);
            write_u64(out, frame_columns[c].is_string ? string_rank[v] : v);
        }
        fputc(']', out);
    }
    fputs("}", out);
}

/* A differential tab needs its before and after values. */
static int is_differential(const struct stoke_report_tab *tab)
{
    return tab->differential && tab->profile->nvalues >= 2;
}

/* What the profile measures, as the viewer names it. */
static const char *profile_kind_name(enum stoke_profile_kind kind)
{
    switch (kind) {
    case STOKE_PROFILE_HEAP:
        return "heap";
    case STOKE_PROFILE_JS_HEAP:
        return "js_heap";
    default:
        return "cpu";
    }
}

static void write_tab_header(FILE *out, const struct stoke_report_tab *tab)
{
    const struct stoke_profile *p = tab->profile;
    fputs("{\"name\":", out);
    escape_json_string(out, tab->name);
    fprintf(out, ",\"kind\":\"%s\",\"differential\":%d,\n\"period_ns\":",
            profile_kind_name(p->kind), is_differential(tab));
    write_u64(out, p->period_ns);
    fputs(",\n\"values\":[", out);
    for (size_t v = 0; v < p->nvalues; v++) {
        fputs(v ? ",{\"name\":" : "{\"name\":", out);
        escape_json_string(out, p->value_names[v]);
        fputs(",\"unit\":", out);
        escape_json_string(out, p->value_units[v]);
        fputc('}', out);
    }
    fputs("]", out);
}

/* How a differential tab's two sides compare (struct stoke_diff_sides). */
static void write_sides(FILE *out, const struct stoke_diff_sides *d)
{
    fprintf(out, ",\n\"sides\":{\"shares\":%d,\"total\":[%" PRId64 ",%" PRId64
                 "],\"processes\":[%zu,%zu]}",
            d->shares, d->total[0], d->total[1], d->nprocs[0], d->nprocs[1]);
}

static void write_processes(FILE *out, const struct stoke_profile *p)
{
    fputs(",\n\"processes\":[", out);
    for (size_t i = 0; i < p->nprocs; i++) {
        const struct stoke_process_summary *s = &p->procs[i];
        fprintf(out, "%s{\"pid\":%" PRIu32 ",\"comm\":", i ? "," : "", s->pid);
        escape_json_string(out, s->comm);
        fprintf(out, ",\"samples\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"duration_us\":%" PRIu64,
                s->samples, s->samples_lost, s->duration_us);
        if (s->first_part > 1) /* its oldest parts were removed (--max-size) */
            fprintf(out, ",\"kept_from_us\":%" PRIu64, s->kept_from_us);
        if (s->heap.sample_interval) /* a heap snapshot's: how exact, and when */
            fprintf(out, ",\"heap_interval\":%" PRIu64 ",\"taken_us\":%" PRIu64,
                    s->heap.sample_interval, s->heap.realtime_ns / 1000);
        fputc('}', out);
    }
    fputs("]", out);
}

/* The tab's call tree, its frames as indices into the shared table. */
static void write_tree(FILE *out, const struct call_tree *tree, const uint32_t *frame_map)
{
    fputs(",\n\"tree\":{\"depth\":", out);
    write_u32_array(out, tree->depth, tree->nnodes, NULL);
    fputs(",\n\"frame\":", out);
    write_u32_array(out, tree->frame, tree->nnodes, frame_map);
    fputs(",\n\"self\":[", out);
    for (size_t v = 0; v < tree->nvalues; v++) {
        if (v)
            fputs(",\n", out);
        write_i64_array(out, &tree->self[v * tree->nnodes], tree->nnodes);
    }
    fputs("]}}", out);
}

/* The lines the tab's frames were at (line_table.h), one array per
 * field, self and total one array per value; none without lines. */
static void write_lines(FILE *out, const struct shared *s, size_t t)
{
    const struct line_table *lines = &s->lines[t];
    if (!lines->n)
        return;
    fputs(",\n\"lines\":{\"frame\":[", out);
    for (size_t i = 0; i < lines->n; i++) {
        fputs(i ? "," : "", out);
        write_u64(out, s->tab_frames[t][lines->entries[i].frame]);
    }
    fputs("],\n\"file\":[", out);
    for (size_t i = 0; i < lines->n; i++) {
        fputs(i ? "," : "", out);
        write_u64(out, s->string_rank[s->line_files[t][i]]);
    }
    fputs("],\n\"line\":[", out);
    for (size_t i = 0; i < lines->n; i++) {
        fputs(i ? "," : "", out);
        write_u64(out, lines->entries[i].line);
    }
    for (int total = 0; total <= 1; total++) {
        fputs(total ? "],\n\"total\":[" : "],\n\"self\":[", out);
        for (size_t v = 0; v < lines->nvalues; v++) {
            fputs(v ? ",[" : "[", out);
            for (size_t i = 0; i < lines->n; i++) {
                const struct line_entry *e = &lines->entries[i];
                fprintf(out, i ? ",%" PRId64 : "%" PRId64, total ? e->total[v] : e->self[v]);
            }
            fputc(']', out);
        }
    }
    fputs("]}", out);
}

/* Writes tab t; -1 when out of memory for its call tree or timeline. */
static int write_tab(FILE *out, const struct stoke_report_tab *tab, const struct shared *s,
                     size_t t, const struct timeline_grid *grid)
{
    struct call_tree tree;
    if (call_tree_build(&tree, tab->profile) < 0)
        return -1;
    write_tab_header(out, tab);
    if (is_differential(tab))
        write_sides(out, &tab->profile->diff);
    write_processes(out, tab->profile);
    int rc = timeline_data_write(out, tab->profile, &tree, grid);
    write_lines(out, s, t);
    write_tree(out, &tree, s->tab_frames[t]);
    call_tree_free(&tree);
    return rc;
}

/* The moments every timeline marks, in microseconds since the epoch. */
static void write_marks(FILE *out, const struct stoke_report *r)
{
    fputs(",\n\"marks\":[", out);
    for (size_t i = 0; i < r->nmarks; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        escape_json_string(out, r->marks[i].name);
        fputs(",\"at_us\":", out);
        write_u64(out, r->marks[i].realtime_ns / 1000);
        fputc('}', out);
    }
    fputc(']', out);
}

static int write_document(FILE *out, const struct stoke_report *r, const struct shared *s)
{
    fprintf(out, "{\"version\":%d,\n\"title\":", REPORT_DATA_VERSION);
    escape_json_string(out, stoke_report_title(r));
    write_strings(out, &s->strings);
    write_frames(out, &s->frames, s->string_rank);
    write_marks(out, r);
    const struct timeline_grid grid = timeline_grid_of(r->tabs, r->ntabs);
    fputs(",\n\"tabs\":[", out);
    for (size_t t = 0; t < r->ntabs; t++) {
        if (t)
            fputs(",\n", out);
        if (write_tab(out, &r->tabs[t], s, t, &grid) < 0)
            return -1;
    }
    fputs("]", out);
    source_snippets_write(out, &s->sources, s->string_rank);
    fputs("}", out);
    return 0;
}

int report_data_write(FILE *out, const struct stoke_report *r)
{
    struct shared s;
    int rc = shared_build(&s, r->tabs, r->ntabs) == 0 ? write_document(out, r, &s) : -1;
    shared_free(&s);
    if (rc < 0)
        errno = ENOMEM;
    return rc;
}
