/*
 * heap_summary.c - prints what heap snapshots hold in a few lines: per
 * snapshot its trigger, file, live total, sampling interval and anything
 * the agent could not track; then the allocation stacks with the most of a
 * measure, by their leaf function, in human units. Reads profiles only;
 * never changes them.
 */
#include "heap_summary.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include "alloc.h"
#include "measure.h"
#include "stoke_format.h"
#include "units.h"
#include "warn.h"

#define NAME_WIDTH_MAX 100

const char *trigger_name(int trigger)
{
    switch (trigger) {
    case STOKE_HEAP_SIGNAL:
        return "signal";
    case STOKE_HEAP_API:
        return "api";
    case STOKE_HEAP_EXIT:
        return "exit";
    case STOKE_HEAP_PEAK:
        return "peak";
    }
    return "unknown trigger";
}

static void print_sampling(FILE *out, uint64_t interval)
{
    char text[BYTES_TEXT_MAX];
    if (interval <= 1) {
        fprintf(out, ", every allocation tracked");
        return;
    }
    format_bytes(text, sizeof text, interval);
    fprintf(out, ", sampled every %s", text);
}

void print_snapshot_line(FILE *out, const struct stoke_process_summary *snapshot)
{
    const struct stoke_heap_summary *h = &snapshot->heap;
    char live[BYTES_TEXT_MAX];
    format_bytes(live, sizeof live, h->live_bytes);
    if (h->trigger == STOKE_HEAP_PEAK)
        fprintf(out, "stoke: peak heap snapshot");
    else
        fprintf(out, "stoke: heap snapshot %" PRIu64 " (%s)", h->sequence,
                trigger_name(h->trigger));
    fprintf(out, " in %s: %s live in %" PRIu64 " object%s", snapshot->trace_path, live,
            h->live_objects, h->live_objects == 1 ? "" : "s");
    print_sampling(out, h->sample_interval);
    if (h->untracked)
        fprintf(out, ", %" PRIu64 " allocation%s untracked (stoke's tables were full)",
                h->untracked, h->untracked == 1 ? "" : "s");
    fputc('\n', out);
}

struct ranked_row {
    int64_t value;
    uint32_t stack;
};

static int by_value_descending(const void *a, const void *b)
{
    const struct ranked_row *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? 1 : -1;
    return (x->stack > y->stack) - (x->stack < y->stack);
}

static const char *leaf_name(const struct stoke_profile *p, uint32_t stack)
{
    return p->frames[p->stack_frames[p->stack_start[stack] + p->stack_len[stack] - 1]].name;
}

static void print_largest_header(FILE *out, const struct stoke_profile *p, int measure)
{
    const struct stoke_process_summary *s = &p->procs[0];
    fprintf(out, "  largest allocation stacks by %s in ", measure_label(measure));
    if (s->heap.trigger == STOKE_HEAP_PEAK)
        fprintf(out, "the peak snapshot");
    else
        fprintf(out, "snapshot %" PRIu64 " (%s)", s->heap.sequence, trigger_name(s->heap.trigger));
    fputs(" of ", out);
    stoke_put_printable(out, s->comm, SIZE_MAX);
    fprintf(out, " (%u), by leaf function:\n", s->pid);
}

void print_largest_stacks(FILE *out, const struct stoke_profile *p, int measure, size_t count)
{
    struct ranked_row *rows = stoke_xmalloc((p->nrows ? p->nrows : 1) * sizeof *rows);
    size_t n = 0;
    for (size_t r = 0; r < p->nrows; r++)
        if (p->rows[r].values[measure] > 0 && p->stack_len[p->rows[r].stack] > 0)
            rows[n++] = (struct ranked_row){p->rows[r].values[measure], p->rows[r].stack};
    qsort(rows, n, sizeof *rows, by_value_descending);
    if (n)
        print_largest_header(out, p, measure);
    for (size_t i = 0; i < n && i < count; i++) {
        char value[BYTES_TEXT_MAX];
        format_value(value, sizeof value, p->value_units[measure], rows[i].value);
        fprintf(out, "  %12s  ", value);
        stoke_put_printable(out, leaf_name(p, rows[i].stack), NAME_WIDTH_MAX);
        fputc('\n', out);
    }
    free(rows);
}
