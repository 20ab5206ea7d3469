/*
 * js_heap_terminal.c - see js_heap_terminal.h. Owns the reading of a
 * snapshot for a report (its profile and its Summary rows in one pass) and
 * the wording of the JavaScript heap on the terminal. Never keeps a
 * snapshot's graph past js_snapshot_read.
 */
#include "js_heap_terminal.h"

#include <inttypes.h>
#include <stdlib.h>

#include "alloc.h"
#include "js_heap_analysis.h"
#include "js_heap_profile.h"
#include "js_heap_read.h"
#include "js_heap_summary.h"
#include "units.h"
#include "warn.h"

#define NAME_WIDTH_MAX 100

static void keep_rows(struct js_snapshot_summary *out, const struct stoke_js_heap_analysis *a)
{
    uint32_t *order;
    size_t n = stoke_js_heap_by_constructor(a, &order);
    out->nrows = n < JS_SUMMARY_ROWS ? n : JS_SUMMARY_ROWS;
    out->rows = stoke_xcalloc(out->nrows ? out->nrows : 1, sizeof *out->rows);
    for (size_t i = 0; i < out->nrows; i++) {
        const struct stoke_js_class *c = &a->classes[order[i]];
        out->rows[i] = (struct js_constructor){stoke_xstrdup(c->name), c->count,
                                               c->shallow_bytes, c->retained_bytes};
    }
    out->objects = a->objects;
    out->bytes = a->total_bytes;
    free(order);
}

int js_snapshot_read(const char *path, struct stoke_profile *p, struct js_snapshot_summary *out,
                     char *err, size_t errlen)
{
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, errlen);
    if (!h)
        return -1;
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    if (p)
        stoke_js_heap_add_to_profile(p, a);
    if (out)
        keep_rows(out, a);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
    return 0;
}

void js_snapshot_summary_free(struct js_snapshot_summary *s)
{
    for (size_t i = 0; i < s->nrows; i++)
        free(s->rows[i].name);
    free(s->rows);
    *s = (struct js_snapshot_summary){0};
}

void print_js_constructors(FILE *out, const char *what, const struct js_snapshot_summary *s,
                           size_t count)
{
    char total[BYTES_TEXT_MAX], retained[BYTES_TEXT_MAX], shallow[BYTES_TEXT_MAX];
    format_bytes(total, sizeof total, s->bytes);
    fprintf(out, "  JavaScript heap of %s: %s in %" PRIu64 " objects\n", what, total, s->objects);
    if (!s->nrows)
        return;
    fprintf(out, "    %10s  %10s  %9s  constructor\n", "retained", "shallow", "objects");
    for (size_t i = 0; i < s->nrows && i < count; i++) {
        const struct js_constructor *c = &s->rows[i];
        format_bytes(retained, sizeof retained, c->retained_bytes);
        format_bytes(shallow, sizeof shallow, c->shallow_bytes);
        fprintf(out, "    %10s  %10s  %9" PRIu64 "  ", retained, shallow, c->objects);
        stoke_put_printable(out, c->name, NAME_WIDTH_MAX);
        fputc('\n', out);
    }
}

void print_js_growth(FILE *out, const struct stoke_js_heap_diff *d, size_t count)
{
    char held[BYTES_TEXT_MAX], shallow[BYTES_TEXT_MAX];
    size_t shown = 0;
    for (size_t i = 0; i < d->nclasses && shown < count; i++) {
        const struct stoke_js_class_change *c = &d->classes[i];
        int64_t grew = (int64_t)c->shallow_bytes[1] - (int64_t)c->shallow_bytes[0];
        if (!c->held_by_new && grew <= 0)
            break;
        if (!shown++)
            fprintf(out, "  JavaScript heap, by constructor: what new objects hold, and the "
                         "change\n    %10s  %10s  %9s  %9s  constructor\n",
                    "held (new)", "shallow", "objects", "new");
        format_bytes(held, sizeof held, c->held_by_new);
        format_byte_change(shallow, sizeof shallow, grew);
        fprintf(out, "    %10s  %10s  %+9" PRId64 "  %9" PRIu64 "  ", held, shallow,
                (int64_t)c->count[1] - (int64_t)c->count[0], c->new_count);
        stoke_put_printable(out, c->name, NAME_WIDTH_MAX);
        fputc('\n', out);
    }
    if (!shown)
        fprintf(out, "  JavaScript heap: no constructor grew\n");
}
