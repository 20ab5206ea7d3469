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
 * With lines (stoke report --folded --lines), each frame of a profile read
 * from traces is "name file:line", the line it was at when sampled: the
 * line sampled in the leaf, the line of the call in its callers (of the
 * inlined call, for a function inlined there); a frame of unknown line
 * stays its name alone. Stacks that differ only in their addresses are one
 * line.
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
#include "code_sites.h"

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

/* One line's stack: a row's, or with lines a site's (code_sites.h), whose
 * frames each name the line they were at. */
struct line_stack {
    uint32_t stack;
    uint32_t site; /* UINT32_MAX: a row's */
};

struct folding {
    const struct stoke_profile *p;
    int lines; /* 1: stacks are sites */
};

/* The positions of a site's frames (ids into sites.positions), NULL for a row. */
static const uint32_t *positions_of(const struct folding *f, const struct line_stack *s)
{
    return s->site == UINT32_MAX ? NULL : stoke_site_position_ids(f->p, s->site);
}

static const int64_t *values_of(const struct folding *f, const struct line_stack *s)
{
    return s->site == UINT32_MAX ? f->p->rows[s->stack].values
                                 : stoke_site_values(f->p, s->site);
}

static void write_stack(FILE *out, const struct folding *f, const struct line_stack *s)
{
    const uint32_t *frames = f->p->stack_frames + f->p->stack_start[s->stack];
    const uint32_t *at = positions_of(f, s);
    for (uint32_t i = 0; i < f->p->stack_len[s->stack]; i++) {
        if (i)
            putc(';', out);
        write_name(out, f->p->frames[frames[i]].name);
        const struct stoke_position *pos = at ? &f->p->sites.positions[at[i]] : NULL;
        if (pos && pos->line) {
            putc(' ', out);
            write_name(out, *pos->file ? pos->file : "?");
            fprintf(out, ":%" PRIu32, pos->line);
        }
    }
}

/* --- ordering stacks by their names --------------------------------------- */

static const char *name_at(const struct stoke_profile *p, uint32_t stack, uint32_t i)
{
    return p->frames[p->stack_frames[p->stack_start[stack] + i]].name;
}

/* Names are interned: equal is the same pointer. */
static int compare_strings(const char *x, const char *y)
{
    return x == y ? 0 : strcmp(x, y);
}

/* By file and line: what a folded line shows of a position. */
static int compare_positions(const struct folding *f, uint32_t a, uint32_t b)
{
    const struct stoke_position *x = &f->p->sites.positions[a], *y = &f->p->sites.positions[b];
    int c = a == b ? 0 : compare_strings(x->file, y->file);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int compare_stacks(const struct folding *f, const struct line_stack *a,
                          const struct line_stack *b)
{
    uint32_t na = f->p->stack_len[a->stack], nb = f->p->stack_len[b->stack];
    const uint32_t *at_a = positions_of(f, a), *at_b = positions_of(f, b);
    for (uint32_t i = 0; i < na && i < nb; i++) {
        int c = compare_strings(name_at(f->p, a->stack, i), name_at(f->p, b->stack, i));
        if (!c && at_a)
            c = compare_positions(f, at_a[i], at_b[i]);
        if (c)
            return c;
    }
    return na < nb ? -1 : na > nb;
}

static int by_names(const void *a, const void *b, void *folding)
{
    return compare_stacks(folding, a, b);
}

/* The values of one line: which of the profile's values, how many. */
struct columns {
    const size_t *index;
    size_t n;
};

static int any_value(const int64_t *values, const struct columns *c)
{
    for (size_t k = 0; k < c->n; k++)
        if (values[c->index[k]] != 0)
            return 1;
    return 0;
}

/* The stacks (rows, or sites with lines) with a non-zero value in a
 * column, sorted by names; returns how many. */
static size_t sorted_stacks(const struct folding *f, const struct columns *c,
                            struct line_stack *out)
{
    const struct stoke_profile *p = f->p;
    size_t n = 0, count = f->lines ? p->sites.n : p->nrows;
    for (size_t i = 0; i < count; i++) {
        struct line_stack s = f->lines ? (struct line_stack){p->sites.stack[i], (uint32_t)i}
                                       : (struct line_stack){p->rows[i].stack, UINT32_MAX};
        if (any_value(values_of(f, &s), c) && p->stack_len[s.stack] != 0)
            out[n++] = s;
    }
    qsort_r(out, n, sizeof *out, by_names, (void *)f);
    return n;
}

static int write_lines(FILE *out, const struct stoke_profile *p, int lines,
                       const struct columns *c)
{
    for (size_t k = 0; k < c->n; k++)
        if (c->index[k] >= p->nvalues)
            return 0;
    const struct folding f = {p, lines && p->sites.n};
    size_t most = f.lines ? p->sites.n : p->nrows;
    struct line_stack *stacks = stoke_xmalloc((most ? most : 1) * sizeof *stacks);
    size_t n = sorted_stacks(&f, c, stacks);
    for (size_t i = 0; i < n;) {
        int64_t sum[STOKE_MAX_VALUES] = {0};
        size_t j = i;
        for (; j < n && compare_stacks(&f, &stacks[i], &stacks[j]) == 0; j++)
            for (size_t k = 0; k < c->n; k++)
                sum[c->index[k]] += values_of(&f, &stacks[j])[c->index[k]];
        if (any_value(sum, c)) {
            write_stack(out, &f, &stacks[i]);
            for (size_t k = 0; k < c->n; k++)
                fprintf(out, " %" PRId64, sum[c->index[k]]);
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
        if (write_lines(out, r->tabs[t].profile, r->lines,
                        r->tabs[t].differential ? &two : &one))
            return -1;
    return 0;
}
