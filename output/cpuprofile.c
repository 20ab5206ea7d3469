/*
 * cpuprofile.c - writes Chrome's .cpuprofile JSON; see cpuprofile.h.
 *
 * Owns: the call tree of the profile's stacks (node 1 is "(root)", then
 * each process, thread and code frame as stoke shows them) and the
 * synthetic timeline of samples.
 * Never: writes a string unescaped, or changes the profile.
 */
#include "cpuprofile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "stack_parts.h"
#include "u64map.h"

#define NO_FRAME UINT32_MAX

/* The call tree: node i (0-based; id i + 1) is frame[i] called from
 * parent[i]; node 0 is the root. */
struct tree {
    uint32_t *frame, *parent;
    int64_t *hits;
    size_t n, frame_cap, parent_cap, hits_cap;
    struct stoke_u64map children; /* parent << 32 | frame -> node */
    uint32_t *leaf_of_row;
};

static uint32_t add_node(struct tree *t, uint32_t parent, uint32_t frame)
{
    t->frame = stoke_grow(t->frame, &t->frame_cap, t->n + 1, sizeof *t->frame);
    t->parent = stoke_grow(t->parent, &t->parent_cap, t->n + 1, sizeof *t->parent);
    t->hits = stoke_grow(t->hits, &t->hits_cap, t->n + 1, sizeof *t->hits);
    t->frame[t->n] = frame;
    t->parent[t->n] = parent;
    t->hits[t->n] = 0;
    return (uint32_t)t->n++;
}

static uint32_t child(struct tree *t, uint32_t parent, uint32_t frame)
{
    uint64_t key = ((uint64_t)parent << 32) | frame;
    uint32_t node;
    if (!stoke_u64map_get(&t->children, key, &node)) {
        node = add_node(t, parent, frame);
        stoke_u64map_put(&t->children, key, node);
    }
    return node;
}

static void build_tree(struct tree *t, const struct stoke_profile *p)
{
    add_node(t, NO_FRAME, NO_FRAME);
    t->leaf_of_row = stoke_xmalloc((p->nrows ? p->nrows : 1) * sizeof *t->leaf_of_row);
    for (size_t r = 0; r < p->nrows; r++) {
        uint32_t s = p->rows[r].stack, node = 0;
        for (uint32_t i = 0; i < p->stack_len[s]; i++)
            node = child(t, node, p->stack_frames[p->stack_start[s] + i]);
        t->leaf_of_row[r] = node;
        t->hits[node] += p->rows[r].values[0];
    }
}

static void free_tree(struct tree *t)
{
    free(t->frame);
    free(t->parent);
    free(t->hits);
    free(t->leaf_of_row);
    stoke_u64map_free(&t->children);
}

/* DevTools and VS Code link a frame to its source by URL. */
static void write_url(FILE *out, const char *file)
{
    if (file[0] != '/') {
        escape_json_string(out, file);
        return;
    }
    size_t len = strlen(file) + sizeof "file://";
    char *url = stoke_xmalloc(len);
    snprintf(url, len, "file://%s", file);
    escape_json_string(out, url);
    free(url);
}

static void write_call_frame(FILE *out, const struct stoke_profile *p, uint32_t frame)
{
    const struct stoke_frame *f = frame == NO_FRAME ? NULL : &p->frames[frame];
    fputs("\"callFrame\":{\"functionName\":", out);
    escape_json_string(out, f ? f->name : "(root)");
    fputs(",\"scriptId\":\"0\",\"url\":", out);
    write_url(out, f ? f->file : "");
    fprintf(out, ",\"lineNumber\":%" PRId64 ",\"columnNumber\":-1}",
            f && f->line ? (int64_t)f->line - 1 : (int64_t)-1);
}

/* Nodes in id order, each with its children's ids. */
static void write_nodes(FILE *out, const struct stoke_profile *p, const struct tree *t)
{
    /* children of each node, grouped by parent (counting sort) */
    size_t *first = stoke_xcalloc(t->n + 1, sizeof *first);
    uint32_t *kids = stoke_xmalloc(t->n * sizeof *kids);
    for (size_t i = 1; i < t->n; i++)
        first[t->parent[i] + 1]++;
    for (size_t i = 0; i < t->n; i++)
        first[i + 1] += first[i];
    size_t *next = stoke_xmalloc((t->n + 1) * sizeof *next);
    memcpy(next, first, (t->n + 1) * sizeof *next);
    for (size_t i = 1; i < t->n; i++)
        kids[next[t->parent[i]]++] = (uint32_t)i;
    fputs("\"nodes\":[", out);
    for (size_t i = 0; i < t->n; i++) {
        fprintf(out, "%s{\"id\":%zu,", i ? "," : "", i + 1);
        write_call_frame(out, p, t->frame[i]);
        fprintf(out, ",\"hitCount\":%" PRId64, t->hits[i]);
        if (first[i + 1] > first[i]) {
            fputs(",\"children\":[", out);
            for (size_t k = first[i]; k < first[i + 1]; k++)
                fprintf(out, k > first[i] ? ",%" PRIu32 : "%" PRIu32, kids[k] + 1);
            putc(']', out);
        }
        putc('}', out);
    }
    putc(']', out);
    free(first);
    free(kids);
    free(next);
}

/* One sample per unit of weight, each one period later than the one
 * before; times in microseconds, rounded so they add up to the total. */
static void write_samples(FILE *out, const struct stoke_profile *p, const struct tree *t)
{
    uint64_t start_us = p->nprocs ? p->procs[0].start_realtime_ns / 1000 : 0;
    uint64_t elapsed_ns = 0, written_us = 0;
    int first = 1;
    fprintf(out, ",\"startTime\":%" PRIu64 ",\"samples\":[", start_us);
    for (size_t r = 0; r < p->nrows; r++)
        for (int64_t k = 0; k < p->rows[r].values[0]; k++, first = 0)
            fprintf(out, first ? "%" PRIu32 : ",%" PRIu32, t->leaf_of_row[r] + 1);
    fputs("],\"timeDeltas\":[", out);
    first = 1;
    for (size_t r = 0; r < p->nrows; r++) {
        struct stack_parts parts;
        stack_parts_of(p, p->rows[r].stack, &parts);
        uint64_t period = sample_period_ns(p, parts.process);
        for (int64_t k = 0; k < p->rows[r].values[0]; k++, first = 0) {
            elapsed_ns += period;
            uint64_t now_us = elapsed_ns / 1000;
            fprintf(out, first ? "%" PRIu64 : ",%" PRIu64, now_us - written_us);
            written_us = now_us;
        }
    }
    fprintf(out, "],\"endTime\":%" PRIu64 "}\n", start_us + written_us);
}

int stoke_write_cpuprofile(FILE *out, const struct stoke_report *r)
{
    const struct stoke_profile *p = r->tabs[0].profile;
    if (p->kind != STOKE_PROFILE_CPU) {
        errno = EINVAL;
        return -1;
    }
    if (stoke_profile_total(p, 0) > STOKE_CPUPROFILE_MAX_SAMPLES) {
        errno = EFBIG;
        return -1;
    }
    struct tree t = {0};
    build_tree(&t, p);
    putc('{', out);
    write_nodes(out, p, &t);
    write_samples(out, p, &t);
    free_tree(&t);
    fflush(out);
    return ferror(out) ? -1 : 0;
}
