/*
 * js_heap_tool.c - runs stoke's V8 heap snapshot reader and analysis on
 * files, for the tests that check them against node and DevTools and for
 * the benchmark (bench/workloads/js_heap_read.py):
 *
 *   js_heap_tool read FILE             read only: "nodes N edges E strings S"
 *   js_heap_tool summary FILE          DevTools' Summary, a tab-separated row
 *                                      per group: name, position ("" or
 *                                      script:line:column), objects, shallow
 *                                      bytes, retained bytes; then "total"
 *   js_heap_tool diff BEFORE AFTER     a row per group: name, position, objects
 *                                      before and after, shallow bytes before and
 *                                      after, retained bytes before and after,
 *                                      new objects and bytes, deleted ones
 *   js_heap_tool folded FILE           the JS heap profile as folded stacks
 *                                      (js_shallow)
 *   js_heap_tool pprof FILE OUT        the JS heap profile as pprof, to OUT
 *
 * Exits 0, or 1 with stoke's one-line error on stderr, or 2 on a usage
 * error.
 *
 * Never: is installed or run by users (stoke's commands are theirs).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "js_heap_analysis.h"
#include "js_heap_diff.h"
#include "js_heap_load.h"
#include "js_heap_profile.h"
#include "js_heap_read.h"
#include "js_heap_summary.h"
#include "pprof.h"

static void print_position(int located, const struct stoke_js_location *w)
{
    if (located)
        printf("%u:%u:%u", w->script_id, w->line, w->column);
}

/* The snapshot at path, or NULL after its error on stderr. */
static struct stoke_js_heap *read_snapshot(const char *path)
{
    char err[512];
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, sizeof err);
    if (!h)
        fprintf(stderr, "%s\n", err);
    return h;
}

static int read_only(const char *path)
{
    struct stoke_js_heap *h = read_snapshot(path);
    if (!h)
        return 1;
    printf("nodes %zu edges %zu strings %zu\n", h->node_count, h->edge_count, h->string_count);
    stoke_js_heap_free(h);
    return 0;
}

static void print_summary(const struct stoke_js_heap_analysis *a)
{
    uint32_t *order;
    size_t n = stoke_js_heap_by_constructor(a, &order);
    for (size_t i = 0; i < n; i++) {
        const struct stoke_js_class *c = &a->classes[order[i]];
        printf("%s\t", c->name);
        print_position(c->located, &c->where);
        printf("\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", c->count, c->shallow_bytes,
               c->retained_bytes);
    }
    printf("total\t\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", a->objects, a->total_bytes,
           a->total_bytes);
    free(order);
}

static int summary(const char *path)
{
    struct stoke_js_heap *h = read_snapshot(path);
    if (!h)
        return 1;
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    print_summary(a);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
    return 0;
}

static void print_change(const struct stoke_js_class_change *c)
{
    printf("%s\t", c->name);
    print_position(c->located, &c->where);
    printf("\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
           "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n",
           c->count[0], c->count[1], c->shallow_bytes[0], c->shallow_bytes[1],
           c->retained_bytes[0], c->retained_bytes[1], c->new_count, c->new_bytes,
           c->deleted_count, c->deleted_bytes);
}

static int diff(const char *before, const char *after)
{
    char err[512];
    struct stoke_profile *pb = stoke_profile_new(), *pa = stoke_profile_new();
    struct stoke_js_heap_diff *d;
    int rc = stoke_js_heap_compare(before, after, pb, pa, &d, err, sizeof err);
    if (rc == 0) {
        for (size_t i = 0; i < d->nclasses; i++)
            print_change(&d->classes[i]);
        stoke_js_heap_diff_free(d);
    } else {
        fprintf(stderr, "%s\n", err);
    }
    stoke_profile_free(pb);
    stoke_profile_free(pa);
    return rc ? 1 : 0;
}

static int folded(const char *path)
{
    char err[512];
    struct stoke_profile *p = stoke_profile_new();
    struct stoke_report_tab tab;
    const struct stoke_report r = stoke_report_of(p, STOKE_JS_HEAP_SHALLOW_BYTES, &tab);
    int rc = stoke_js_heap_load(p, path, err, sizeof err);
    if (rc == 0)
        stoke_write_folded(stdout, &r);
    else
        fprintf(stderr, "%s\n", err);
    stoke_profile_free(p);
    return rc ? 1 : 0;
}

static int pprof(const char *path, const char *out_path)
{
    char err[512];
    struct stoke_profile *p = stoke_profile_new();
    struct stoke_report_tab tab;
    const struct stoke_report r = stoke_report_of(p, 0, &tab);
    int rc = stoke_js_heap_load(p, path, err, sizeof err);
    FILE *out = rc == 0 ? fopen(out_path, "w") : NULL;
    if (rc != 0)
        fprintf(stderr, "%s\n", err);
    else if (!out || stoke_write_pprof(out, &r) != 0)
        perror(out_path);
    rc = rc || !out || fclose(out) != 0;
    stoke_profile_free(p);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *command = argc > 1 ? argv[1] : "";
    if (argc == 3 && strcmp(command, "read") == 0)
        return read_only(argv[2]);
    if (argc == 3 && strcmp(command, "summary") == 0)
        return summary(argv[2]);
    if (argc == 4 && strcmp(command, "diff") == 0)
        return diff(argv[2], argv[3]);
    if (argc == 3 && strcmp(command, "folded") == 0)
        return folded(argv[2]);
    if (argc == 4 && strcmp(command, "pprof") == 0)
        return pprof(argv[2], argv[3]);
    fputs("usage: js_heap_tool read|summary|folded FILE\n"
          "       js_heap_tool diff BEFORE AFTER\n"
          "       js_heap_tool pprof FILE OUT\n",
          stderr);
    return 2;
}
