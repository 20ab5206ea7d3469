/*
 * folded.c - writes a profile as folded stacks, the text format of
 * flamegraph.pl, stackcollapse and speedscope/inferno importers:
 *
 *     root;caller;leaf 42
 *
 * One line per distinct stack of frame names with a non-zero value: names
 * root first, joined with ';', then one space and the integer value. Rows
 * whose stacks differ only in what the names do not show (module, file,
 * line, inlined) are summed into one line. Lines come sorted by their
 * frame names, as stackcollapse writes them.
 *
 * The differential form (difffolded.pl's output, the input of
 * flamegraph.pl for a differential graph) writes two values per line,
 * before and after, "root;caller;leaf 40 42", for every stack with a
 * non-zero value on either side (0 on the side that lacks it).
 *
 * Names are written as they are, except for the characters that would break
 * the line structure: ';' (the frame separator) becomes ':' and a newline,
 * carriage return or tab becomes a space, so every stack stays one line and
 * every frame one field.
 *
 * Owns: the folded text format.
 * Never: reads traces or changes the profile.
 */
#define _GNU_SOURCE /* qsort_r */
#include "folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"

static char safe_char(char c)
{
    switch (c) {
    case ';':
        return ':';
    case '\n':
    case '\r':
    case '\t':
        return ' ';
    default:
        return c;
    }
}

static void write_name(FILE *out, const char *name)
{
    if (!strpbrk(name, ";\n\r\t")) {
        fputs(name, out);
        return;
    }
    for (const char *c = name; *c; c++)
        putc(safe_char(*c), out);
}

static void write_stack(FILE *out, const struct stoke_profile *p, uint32_t stack)
{
    const uint32_t *frames = p->stack_frames + p->stack_start[stack];
    for (uint32_t i = 0; i < p->stack_len[stack]; i++) {
        if (i)
            putc(';', out);
        write_name(out, p->frames[frames[i]].name);
    }
}

/* --- ordering stacks by their names --------------------------------------- */

static const char *name_at(const struct stoke_profile *p, uint32_t stack, uint32_t i)
{
    return p->frames[p->stack_frames[p->stack_start[stack] + i]].name;
}

static int compare_names(const struct stoke_profile *p, uint32_t a, uint32_t b)
{
    uint32_t na = p->stack_len[a], nb = p->stack_len[b];
    for (uint32_t i = 0; i < na && i < nb; i++) {
        const char *x = name_at(p, a, i), *y = name_at(p, b, i);
        int c = x == y ? 0 : strcmp(x, y); /* names are interned: equal is the same pointer */
        if (c)
            return c;
    }
    return na < nb ? -1 : na > nb;
}

static int by_names(const void *a, const void *b, void *profile)
{
    return compare_names(profile, *(const uint32_t *)a, *(const uint32_t *)b);
}

/* The values of one line: which of the profile's values, how many. */
struct columns {
    const size_t *index;
    size_t n;
};

static int any_value(const struct stoke_row *row, const struct columns *c)
{
    for (size_t k = 0; k < c->n; k++)
        if (row->values[c->index[k]] != 0)
            return 1;
    return 0;
}

/* The stacks with a non-zero value in a column, sorted by names; returns
 * how many. */
static size_t sorted_stacks(const struct stoke_profile *p, const struct columns *c,
                            uint32_t *out)
{
    size_t n = 0;
    for (size_t r = 0; r < p->nrows; r++)
        if (any_value(&p->rows[r], c) && p->stack_len[p->rows[r].stack] != 0)
            out[n++] = p->rows[r].stack;
    qsort_r(out, n, sizeof *out, by_names, (void *)p);
    return n;
}

static int write_lines(FILE *out, const struct stoke_profile *p, const struct columns *c)
{
    for (size_t k = 0; k < c->n; k++)
        if (c->index[k] >= p->nvalues)
            return 0;
    uint32_t *stacks = stoke_xmalloc((p->nrows ? p->nrows : 1) * sizeof *stacks);
    size_t n = sorted_stacks(p, c, stacks);
    for (size_t i = 0; i < n;) {
        struct stoke_row sum = {0};
        size_t j = i;
        for (; j < n && compare_names(p, stacks[i], stacks[j]) == 0; j++)
            for (size_t k = 0; k < c->n; k++)
                sum.values[c->index[k]] += p->rows[stacks[j]].values[c->index[k]];
        if (any_value(&sum, c)) {
            write_stack(out, p, stacks[i]);
            for (size_t k = 0; k < c->n; k++)
                fprintf(out, " %" PRId64, sum.values[c->index[k]]);
            putc('\n', out);
        }
        i = j;
    }
    free(stacks);
    fflush(out);
    return ferror(out) ? -1 : 0;
}

int stoke_write_folded(FILE *out, const struct stoke_report *r)
{
    static const size_t before_after[] = {0, 1};
    const struct columns two = {before_after, 2}, one = {&r->value_index, 1};
    for (size_t t = 0; t < r->ntabs; t++)
        if (write_lines(out, r->tabs[t].profile, r->tabs[t].differential ? &two : &one))
            return -1;
    return 0;
}
