/*
 * profile_diff.c - builds the differential profile of two profiles; see
 * profile_diff.h.
 *
 * Owns: how stacks of two profiles are matched (frame by frame, process
 * roots without their pids) and the before/after value layout.
 * Never: changes its inputs, or drops a stack that has a value on either
 * side.
 */
#include "profile_diff.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"

enum { BEFORE = 0, AFTER = 1 };

/* Copies the frames of one input into the diff, each once. */
struct frame_map {
    const struct stoke_profile *from;
    uint32_t *to;     /* by frame index of from; UINT32_MAX = not yet copied */
    uint32_t *stack;  /* scratch: one stack's frames in the diff */
    size_t stack_cap;
};

/* Length of name without a trailing " (digits)". */
static size_t without_pid(const char *name)
{
    size_t len = strlen(name);
    if (len < 4 || name[len - 1] != ')')
        return len;
    size_t i = len - 1;
    while (i > 0 && isdigit((unsigned char)name[i - 1]))
        i--;
    if (i == len - 1 || i < 2 || name[i - 1] != '(' || name[i - 2] != ' ')
        return len;
    return i - 2;
}

/* Frames match by what they show: the builds of before and after differ. */
static uint32_t copy_frame(struct stoke_profile *diff, const struct stoke_frame *f)
{
    struct stoke_frame shown = *f;
    shown.build_id = "";
    if (f->kind != STOKE_KIND_PROCESS)
        return stoke_profile_frame(diff, &shown);
    struct stoke_frame root = shown;
    size_t len = without_pid(f->name);
    char *name = stoke_xmalloc(len + 1);
    memcpy(name, f->name, len);
    name[len] = '\0';
    root.name = name;
    uint32_t index = stoke_profile_frame(diff, &root);
    free(name);
    return index;
}

static uint32_t mapped_frame(struct stoke_profile *diff, struct frame_map *m, uint32_t frame)
{
    if (m->to[frame] == UINT32_MAX)
        m->to[frame] = copy_frame(diff, &m->from->frames[frame]);
    return m->to[frame];
}

/* Adds value value_index of every row of m->from to side (BEFORE, AFTER). */
static void add_side(struct stoke_profile *diff, struct frame_map *m, size_t value_index,
                     int side)
{
    const struct stoke_profile *p = m->from;
    for (size_t r = 0; r < p->nrows; r++) {
        int64_t values[2] = {0, 0};
        values[side] = p->rows[r].values[value_index];
        if (!values[side])
            continue;
        uint32_t s = p->rows[r].stack, n = p->stack_len[s];
        m->stack = stoke_grow(m->stack, &m->stack_cap, n ? n : 1, sizeof *m->stack);
        for (uint32_t i = 0; i < n; i++)
            m->stack[i] = mapped_frame(diff, m, p->stack_frames[p->stack_start[s] + i]);
        stoke_profile_add(diff, m->stack, n, values);
    }
}

static void diff_side(struct stoke_profile *diff, const struct stoke_profile *from,
                      size_t value_index, int side)
{
    struct frame_map m = {.from = from};
    m.to = stoke_xmalloc((from->nframes ? from->nframes : 1) * sizeof *m.to);
    memset(m.to, 0xff, from->nframes * sizeof *m.to);
    add_side(diff, &m, value_index, side);
    free(m.to);
    free(m.stack);
}

static void copy_processes(struct stoke_profile *diff, const struct stoke_profile *from)
{
    for (size_t i = 0; i < from->nprocs; i++) {
        struct stoke_process_summary *s = stoke_profile_add_process(diff);
        *s = from->procs[i];
        s->comm = stoke_xstrdup(from->procs[i].comm);
        s->trace_path = stoke_xstrdup(from->procs[i].trace_path);
        s->root_frame = UINT32_MAX; /* a frame of the input, not of the diff */
    }
}

struct stoke_profile *stoke_profile_diff(const struct stoke_profile *a,
                                         const struct stoke_profile *b, size_t value_index)
{
    struct stoke_profile *diff = stoke_profile_new();
    const char *unit = value_index < a->nvalues ? a->value_units[value_index] : "count";
    diff->kind = a->kind;
    diff->period_ns = a->period_ns;
    stoke_profile_set_value_type(diff, BEFORE, "before", unit);
    stoke_profile_set_value_type(diff, AFTER, "after", unit);
    if (value_index < a->nvalues)
        diff_side(diff, a, value_index, BEFORE);
    if (value_index < b->nvalues)
        diff_side(diff, b, value_index, AFTER);
    copy_processes(diff, a);
    copy_processes(diff, b);
    return diff;
}
