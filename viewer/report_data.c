/*
 * report_data.c - the profile as the viewer's JSON document.
 *
 * Owns: the document's layout and its version number (js/data.js reads it).
 * Never: writes a string unescaped, or one object per frame or per stack.
 */
#include "report_data.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "call_tree.h"
#include "escape.h"
#include "string_pool.h"

#define REPORT_DATA_VERSION 1

/* The string indices of each frame's name, module and file. */
struct frame_strings {
    struct string_pool pool;
    uint32_t *name, *module, *file;
};

static void frame_strings_free(struct frame_strings *fs)
{
    string_pool_free(&fs->pool);
    free(fs->name);
    free(fs->module);
    free(fs->file);
}

static int intern_into(struct string_pool *pool, const char *s, uint32_t *index)
{
    int64_t i = string_pool_intern(pool, s);
    if (i < 0)
        return -1;
    *index = (uint32_t)i;
    return 0;
}

static int frame_strings_build(struct frame_strings *fs, const struct stoke_profile *p)
{
    size_t n = p->nframes ? p->nframes : 1;
    string_pool_init(&fs->pool);
    fs->name = malloc(n * sizeof(uint32_t));
    fs->module = malloc(n * sizeof(uint32_t));
    fs->file = malloc(n * sizeof(uint32_t));
    uint32_t empty;
    if (!fs->name || !fs->module || !fs->file || intern_into(&fs->pool, "", &empty) < 0)
        return -1;
    for (size_t f = 0; f < p->nframes; f++) {
        const struct stoke_frame *fr = &p->frames[f];
        if (intern_into(&fs->pool, fr->name, &fs->name[f]) < 0 ||
            intern_into(&fs->pool, fr->module, &fs->module[f]) < 0 ||
            intern_into(&fs->pool, fr->file, &fs->file[f]) < 0)
            return -1;
    }
    return 0;
}

/* Writes v in decimal; faster than fprintf for the millions of numbers of a
 * large profile. */
static void write_u64(FILE *out, uint64_t v)
{
    char buf[24];
    char *p = buf + sizeof(buf);
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

static void write_i64(FILE *out, int64_t v)
{
    if (v < 0) {
        fputc('-', out);
        write_u64(out, (uint64_t)0 - (uint64_t)v);
    } else {
        write_u64(out, (uint64_t)v);
    }
}

static void write_u32_array(FILE *out, const uint32_t *v, size_t n)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        write_u64(out, v[i]);
    }
    fputc(']', out);
}

static void write_i64_array(FILE *out, const int64_t *v, size_t n)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        write_i64(out, v[i]);
    }
    fputc(']', out);
}

typedef uint64_t frame_field(const struct stoke_frame *f);

static uint64_t frame_line(const struct stoke_frame *f) { return f->line; }
static uint64_t frame_kind(const struct stoke_frame *f) { return f->kind; }
static uint64_t frame_inlined(const struct stoke_frame *f) { return f->inlined; }

/* One numeric field of every frame, as an integer array. */
static void write_frame_column(FILE *out, const struct stoke_profile *p, frame_field *field)
{
    fputc('[', out);
    for (size_t f = 0; f < p->nframes; f++) {
        if (f)
            fputc(',', out);
        write_u64(out, field(&p->frames[f]));
    }
    fputc(']', out);
}

static void write_header(FILE *out, const struct stoke_profile *p, const char *title)
{
    fprintf(out, "{\"version\":%d,\n\"title\":", REPORT_DATA_VERSION);
    escape_json_string(out, title);
    fputs(",\n\"period_ns\":", out);
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

static void write_processes(FILE *out, const struct stoke_profile *p)
{
    fputs(",\n\"processes\":[", out);
    for (size_t i = 0; i < p->nprocs; i++) {
        const struct stoke_process_summary *s = &p->procs[i];
        fprintf(out, "%s{\"pid\":%" PRIu32 ",\"comm\":", i ? "," : "", s->pid);
        escape_json_string(out, s->comm);
        fprintf(out, ",\"samples\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"duration_us\":%" PRIu64 "}",
                s->samples, s->samples_lost, s->duration_us);
    }
    fputs("]", out);
}

static void write_strings(FILE *out, const struct string_pool *pool)
{
    fputs(",\n\"strings\":[", out);
    for (size_t i = 0; i < pool->count; i++) {
        if (i)
            fputs(i % 64 ? "," : ",\n", out);
        escape_json_string(out, pool->strings[i]);
    }
    fputs("]", out);
}

static void write_frames(FILE *out, const struct stoke_profile *p, const struct frame_strings *fs)
{
    fputs(",\n\"frames\":{\"name\":", out);
    write_u32_array(out, fs->name, p->nframes);
    fputs(",\n\"module\":", out);
    write_u32_array(out, fs->module, p->nframes);
    fputs(",\n\"file\":", out);
    write_u32_array(out, fs->file, p->nframes);
    fputs(",\n\"line\":", out);
    write_frame_column(out, p, frame_line);
    fputs(",\n\"kind\":", out);
    write_frame_column(out, p, frame_kind);
    fputs(",\n\"inlined\":", out);
    write_frame_column(out, p, frame_inlined);
    fputs("}", out);
}

static void write_tree(FILE *out, const struct call_tree *tree)
{
    fputs(",\n\"tree\":{\"depth\":", out);
    write_u32_array(out, tree->depth, tree->nnodes);
    fputs(",\n\"frame\":", out);
    write_u32_array(out, tree->frame, tree->nnodes);
    fputs(",\n\"self\":[", out);
    for (size_t v = 0; v < tree->nvalues; v++) {
        if (v)
            fputs(",\n", out);
        write_i64_array(out, &tree->self[v * tree->nnodes], tree->nnodes);
    }
    fputs("]}}", out);
}

int report_data_write(FILE *out, const struct stoke_profile *p, const char *title)
{
    struct frame_strings fs = {0};
    struct call_tree tree;
    int rc = -1;
    if (frame_strings_build(&fs, p) == 0 && call_tree_build(&tree, p) == 0) {
        write_header(out, p, title);
        write_processes(out, p);
        write_strings(out, &fs.pool);
        write_frames(out, p, &fs);
        write_tree(out, &tree);
        call_tree_free(&tree);
        rc = 0;
    } else {
        errno = ENOMEM;
    }
    frame_strings_free(&fs);
    return rc;
}
