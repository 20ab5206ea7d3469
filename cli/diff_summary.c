/*
 * diff_summary.c - see diff_summary.h. Reads the differential profile
 * only; never changes it.
 *
 * Owns: adding up a diff's stacks by the function their code is in: the
 * leaf, or for code inlined there the function it was inlined into (as
 * perf report counts symbols); by name, as the report's function table.
 */
#include "diff_summary.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "measure.h"
#include "warn.h"

#define NAME_WIDTH_MAX 100

/* One leaf function: its name, its values before and after. */
struct function_change {
    const char *name;
    int64_t before, after;
};

static uint64_t size_of_change(const struct function_change *f)
{
    int64_t change = f->after - f->before;
    return change < 0 ? -(uint64_t)change : (uint64_t)change;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct function_change *)a)->name,
                  ((const struct function_change *)b)->name);
}

static int by_size_of_change(const void *a, const void *b)
{
    const struct function_change *x = a, *y = b;
    uint64_t cx = size_of_change(x), cy = size_of_change(y);
    if (cx != cy)
        return cx < cy ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The name of the function the leaf code of stack s is in: the leaf frame
 * or, when it was inlined, the function it was inlined into. */
static const char *code_owner(const struct stoke_profile *diff, uint32_t s)
{
    const uint32_t *frames = &diff->stack_frames[diff->stack_start[s]];
    uint32_t i = diff->stack_len[s] - 1;
    while (i > 0 && diff->frames[frames[i]].inlined)
        i--;
    return diff->frames[frames[i]].name;
}

/* The functions of diff with a change, each once, largest change
 * first; returns how many. */
static size_t changed_functions(const struct stoke_profile *diff, struct function_change *out)
{
    size_t n = 0;
    for (size_t r = 0; r < diff->nrows; r++) {
        uint32_t s = diff->rows[r].stack;
        if (!diff->stack_len[s])
            continue;
        out[n++] = (struct function_change){code_owner(diff, s), diff->rows[r].values[0],
                                            diff->rows[r].values[1]};
    }
    qsort(out, n, sizeof *out, by_name);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && !strcmp(out[kept - 1].name, out[i].name)) {
            out[kept - 1].before += out[i].before;
            out[kept - 1].after += out[i].after;
        } else {
            out[kept++] = out[i];
        }
    }
    n = 0;
    for (size_t i = 0; i < kept; i++)
        if (out[i].after != out[i].before)
            out[n++] = out[i];
    qsort(out, n, sizeof *out, by_size_of_change);
    return n;
}

static double share(int64_t value, int64_t total)
{
    return total ? 100.0 * (double)value / (double)total : 0.0;
}

static void print_function(FILE *out, const struct stoke_profile *diff,
                           const struct function_change *f, const int64_t total[2])
{
    double before = share(f->before, total[0]), after = share(f->after, total[1]);
    if (diff->diff.shares) {
        fprintf(out, "  %+9.1f pts  %5.1f%% -> %5.1f%%  ", after - before, before, after);
    } else {
        char change[64], from[64], to[64];
        format_change(change, sizeof change, diff->value_units[1], f->after - f->before);
        format_value(from, sizeof from, diff->value_units[0], f->before);
        format_value(to, sizeof to, diff->value_units[1], f->after);
        fprintf(out, "  %12s  %s -> %s (%.1f%% -> %.1f%%)  ", change, from, to, before, after);
    }
    stoke_put_printable(out, f->name, NAME_WIDTH_MAX);
    fputc('\n', out);
}

void print_largest_changes(FILE *out, const struct stoke_profile *diff, const char *what,
                           size_t count)
{
    struct function_change *f = stoke_xmalloc((diff->nrows ? diff->nrows : 1) * sizeof *f);
    size_t n = changed_functions(diff, f);
    const int64_t total[2] = {stoke_profile_total(diff, 0), stoke_profile_total(diff, 1)};
    if (n)
        fprintf(out, "  largest changes in %s%s, by function (its own, each once):\n", what,
                diff->diff.shares ? " as shares of each side's total" : "");
    for (size_t i = 0; i < n && i < count; i++)
        print_function(out, diff, &f[i], total);
    if (!n)
        fprintf(out, "  no change in %s\n", what);
    free(f);
}

/* "before 1002 (1 process)": the processes are left out where the side
 * has none (folded stacks). */
static void describe_side(char *text, size_t len, const struct stoke_profile *diff, int side)
{
    char total[64], procs[64] = "";
    size_t n = diff->diff.nprocs[side];
    format_value(total, sizeof total, diff->value_units[side], diff->diff.total[side]);
    if (n)
        snprintf(procs, sizeof procs, " (%zu process%s)", n, n == 1 ? "" : "es");
    snprintf(text, len, "%s %s%s", side ? "after" : "before", total, procs);
}

void print_sides(FILE *out, const struct stoke_profile *diff, const char *what)
{
    char before[128], after[128];
    describe_side(before, sizeof before, diff, 0);
    describe_side(after, sizeof after, diff, 1);
    fprintf(out, "stoke: %s: %s, %s; compared %s\n", what, before, after,
            diff->diff.shares ? "as shares of each side's total (--absolute: as recorded)"
                              : "as recorded");
}
