/*
 * diff_summary.c - see diff_summary.h. Reads the differential profile
 * only; never changes it.
 */
#include "diff_summary.h"

#include <stdlib.h>

#include "alloc.h"
#include "measure.h"
#include "warn.h"

#define NAME_WIDTH_MAX 100

struct ranked_change {
    int64_t change;
    uint32_t stack;
};

static int by_size_of_change(const void *a, const void *b)
{
    const struct ranked_change *x = a, *y = b;
    uint64_t cx = x->change < 0 ? -(uint64_t)x->change : (uint64_t)x->change;
    uint64_t cy = y->change < 0 ? -(uint64_t)y->change : (uint64_t)y->change;
    if (cx != cy)
        return cx < cy ? 1 : -1;
    return (x->stack > y->stack) - (x->stack < y->stack);
}

void print_largest_changes(FILE *out, const struct stoke_profile *diff, const char *what,
                           size_t count)
{
    struct ranked_change *c = stoke_xmalloc((diff->nrows ? diff->nrows : 1) * sizeof *c);
    size_t n = 0;
    for (size_t r = 0; r < diff->nrows; r++) {
        int64_t change = diff->rows[r].values[1] - diff->rows[r].values[0];
        if (change && diff->stack_len[diff->rows[r].stack])
            c[n++] = (struct ranked_change){change, diff->rows[r].stack};
    }
    qsort(c, n, sizeof *c, by_size_of_change);
    if (n)
        fprintf(out, "  largest changes in %s, by leaf function:\n", what);
    for (size_t i = 0; i < n && i < count; i++) {
        uint32_t s = c[i].stack;
        uint32_t leaf = diff->stack_frames[diff->stack_start[s] + diff->stack_len[s] - 1];
        char text[64];
        format_change(text, sizeof text, diff->value_units[1], c[i].change);
        fprintf(out, "  %12s  ", text);
        stoke_put_printable(out, diff->frames[leaf].name, NAME_WIDTH_MAX);
        fputc('\n', out);
    }
    if (!n)
        fprintf(out, "  no change in %s\n", what);
    free(c);
}

