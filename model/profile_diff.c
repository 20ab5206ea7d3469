/*
 * profile_diff.c - builds the differential profile of two profiles; see
 * profile_diff.h.
 *
 * Owns: matching the stacks of two profiles (frame by frame, by identity:
 * frame_identity.h), scaling the sides to shares, and the before/after
 * value layout.
 * Never: changes its inputs, or drops a stack that has a value on either
 * side.
 */
#include "profile_diff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "frame_identity.h"

enum { BEFORE = 0, AFTER = 1 };

/* One input's frames mapped onto the diff's. */
struct frame_map {
    const struct stoke_profile *from;
    uint32_t *to;     /* by frame index of from; UINT32_MAX = not yet mapped */
    uint32_t *stack;  /* scratch: one stack's frames in the diff */
    size_t stack_cap;
};

/* What one side adds: value value_index of from, times scale / total. */
struct side {
    const struct stoke_profile *from;
    size_t value_index;
    int which;           /* BEFORE or AFTER */
    int64_t scale, total; /* equal: as recorded */
};

static uint32_t mapped_frame(struct stoke_identity_frames *frames, struct frame_map *m,
                             uint32_t frame)
{
    if (m->to[frame] == UINT32_MAX)
        m->to[frame] = stoke_identity_frame(frames, &m->from->frames[frame]);
    return m->to[frame];
}

/* value * scale / total, rounded to the nearest. */
static int64_t scaled(int64_t value, const struct side *side)
{
    if (side->scale == side->total)
        return value;
    __int128 product = (__int128)value * side->scale;
    __int128 half = side->total / 2;
    return (int64_t)((product + (product < 0 ? -half : half)) / side->total);
}

/* Adds the rows of one side to its value of the diff. */
static void add_side(struct stoke_identity_frames *frames, const struct side *side)
{
    const struct stoke_profile *p = side->from;
    struct frame_map m = {.from = p};
    m.to = stoke_xmalloc((p->nframes ? p->nframes : 1) * sizeof *m.to);
    memset(m.to, 0xff, p->nframes * sizeof *m.to);
    for (size_t r = 0; r < p->nrows; r++) {
        int64_t values[2] = {0, 0};
        values[side->which] = scaled(p->rows[r].values[side->value_index], side);
        if (!p->rows[r].values[side->value_index])
            continue;
        uint32_t s = p->rows[r].stack, n = p->stack_len[s];
        m.stack = stoke_grow(m.stack, &m.stack_cap, n ? n : 1, sizeof *m.stack);
        for (uint32_t i = 0; i < n; i++)
            m.stack[i] = mapped_frame(frames, &m, p->stack_frames[p->stack_start[s] + i]);
        stoke_profile_add(frames->into, m.stack, n, values);
    }
    free(m.to);
    free(m.stack);
}

static size_t copy_processes(struct stoke_profile *diff, const struct stoke_profile *from)
{
    for (size_t i = 0; i < from->nprocs; i++) {
        struct stoke_process_summary *s = stoke_profile_add_process(diff);
        *s = from->procs[i];
        s->comm = stoke_xstrdup(from->procs[i].comm);
        s->trace_path = stoke_xstrdup(from->procs[i].trace_path);
        s->root_frame = UINT32_MAX; /* a frame of the input, not of the diff */
    }
    return from->nprocs;
}

static int64_t side_total(const struct stoke_profile *p, size_t value_index)
{
    return value_index < p->nvalues ? stoke_profile_total(p, value_index) : 0;
}

/* Scales each side: not at all, or for shares to the larger total (the
 * smaller side scaled up, so no value rounds to 0). */
static void choose_scales(struct stoke_diff_sides *d, enum stoke_diff_scale scale,
                          struct side sides[2])
{
    d->shares = scale == STOKE_DIFF_SHARES && d->total[BEFORE] > 0 && d->total[AFTER] > 0;
    int64_t larger = d->total[BEFORE] > d->total[AFTER] ? d->total[BEFORE] : d->total[AFTER];
    for (int i = 0; i < 2; i++) {
        sides[i].total = d->shares ? d->total[i] : 1;
        sides[i].scale = d->shares ? larger : 1;
    }
}

struct stoke_profile *stoke_profile_diff(const struct stoke_profile *a,
                                         const struct stoke_profile *b, size_t value_index,
                                         enum stoke_diff_scale scale)
{
    struct stoke_profile *diff = stoke_profile_new();
    const char *unit = value_index < a->nvalues ? a->value_units[value_index] : "count";
    diff->kind = a->kind;
    diff->period_ns = a->period_ns;
    stoke_profile_set_value_type(diff, BEFORE, "before", unit);
    stoke_profile_set_value_type(diff, AFTER, "after", unit);
    diff->diff.total[BEFORE] = side_total(a, value_index);
    diff->diff.total[AFTER] = side_total(b, value_index);
    struct side sides[2] = {{a, value_index, BEFORE, 1, 1}, {b, value_index, AFTER, 1, 1}};
    choose_scales(&diff->diff, scale, sides);
    struct stoke_identity_frames frames = {
        .into = diff, .names_only = !stoke_knows_modules(a) || !stoke_knows_modules(b)};
    for (int i = AFTER; i >= BEFORE; i--) /* after's first: frames shown as after has them */
        if (value_index < sides[i].from->nvalues)
            add_side(&frames, &sides[i]);
    stoke_identity_frames_free(&frames);
    diff->diff.nprocs[BEFORE] = copy_processes(diff, a);
    diff->diff.nprocs[AFTER] = copy_processes(diff, b);
    return diff;
}
