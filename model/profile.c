/*
 * profile.c - the offline profile model; see profile.h.
 *
 * Owns: interning of strings (arena + index table), frames (by every field) and
 * stacks (by frame sequence); one row per distinct stack, row i belonging to
 * stack i; process summaries.
 * Never: reads files, symbolizes, or formats output.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "arena.h"
#include "code_sites.h"
#include "hash.h"
#include "index_table.h"

struct profile_impl {
    struct stoke_arena arena;
    /* interned strings */
    const char **strings;
    size_t nstrings, strings_cap;
    struct stoke_index_table string_index;
    /* capacities of the public arrays */
    size_t frames_cap, procs_cap;
    size_t stack_frames_cap, nstack_frames;
    size_t stack_start_cap, stack_len_cap, rows_cap;
    struct stoke_index_table frame_index;
    struct stoke_index_table stack_index;
};

static struct profile_impl *impl_of(const struct stoke_profile *p)
{
    return p->impl;
}

/* --- strings -------------------------------------------------------------- */

static const char *intern_string(struct stoke_profile *p, const char *s)
{
    struct profile_impl *im = impl_of(p);
    if (!s)
        s = "";
    size_t len = strlen(s);
    uint64_t hash = stoke_hash_bytes(s, len);
    size_t pos = SIZE_MAX;
    int64_t idx;
    while ((idx = stoke_index_table_next(&im->string_index, hash, &pos)) >= 0)
        if (strcmp(im->strings[idx], s) == 0)
            return im->strings[idx];
    im->strings = stoke_grow(im->strings, &im->strings_cap, im->nstrings + 1, sizeof *im->strings);
    const char *copy = stoke_arena_strndup(&im->arena, s, len);
    im->strings[im->nstrings] = copy;
    stoke_index_table_add(&im->string_index, hash, (uint32_t)im->nstrings);
    im->nstrings++;
    return copy;
}

const char *stoke_profile_string(struct stoke_profile *p, const char *s)
{
    return intern_string(p, s);
}

/* --- profile -------------------------------------------------------------- */

struct stoke_profile *stoke_profile_new(void)
{
    struct stoke_profile *p = stoke_xcalloc(1, sizeof *p);
    p->impl = stoke_xcalloc(1, sizeof(struct profile_impl));
    stoke_profile_set_value_type(p, 0, "samples", "count");
    return p;
}

void stoke_profile_free(struct stoke_profile *p)
{
    if (!p)
        return;
    struct profile_impl *im = impl_of(p);
    for (size_t i = 0; i < p->nprocs; i++) {
        free(p->procs[i].comm);
        free(p->procs[i].trace_path);
    }
    free(p->procs);
    free(p->samples.at);
    stoke_sites_free(&p->sites);
    free(p->heap_timeline.moments);
    free(p->heap_timeline.changes);
    free(p->rows);
    free(p->stack_frames);
    free(p->stack_start);
    free(p->stack_len);
    free(p->frames);
    stoke_index_table_free(&im->frame_index);
    stoke_index_table_free(&im->stack_index);
    stoke_index_table_free(&im->string_index);
    free(im->strings);
    stoke_arena_free(&im->arena);
    free(im);
    free(p);
}

void stoke_profile_set_value_type(struct stoke_profile *p, size_t i,
                                  const char *name, const char *unit)
{
    if (i >= STOKE_MAX_VALUES || i > p->nvalues)
        return;
    p->value_names[i] = intern_string(p, name);
    p->value_units[i] = intern_string(p, unit);
    if (i == p->nvalues)
        p->nvalues++;
}

/* --- frames --------------------------------------------------------------- */

static uint64_t frame_hash(const struct stoke_frame *f)
{
    uint64_t h = stoke_hash_mix(0, (uintptr_t)f->name);
    h = stoke_hash_mix(h, (uintptr_t)f->module);
    h = stoke_hash_mix(h, (uintptr_t)f->file);
    h = stoke_hash_mix(h, (uintptr_t)f->build_id);
    h = stoke_hash_mix(h, ((uint64_t)f->column << 32) | f->line);
    return stoke_hash_mix(h, ((uint64_t)f->tier << 16) | ((uint64_t)f->kind << 8) | f->inlined);
}

/* Both frames' strings are interned, so equal strings are equal pointers. */
static int frame_equal(const struct stoke_frame *a, const struct stoke_frame *b)
{
    return a->name == b->name && a->module == b->module && a->file == b->file &&
           a->build_id == b->build_id && a->line == b->line && a->column == b->column &&
           a->kind == b->kind && a->inlined == b->inlined && a->tier == b->tier;
}

uint32_t stoke_profile_frame(struct stoke_profile *p, const struct stoke_frame *f)
{
    struct profile_impl *im = impl_of(p);
    struct stoke_frame key = *f;
    key.name = intern_string(p, f->name);
    key.module = intern_string(p, f->module);
    key.file = intern_string(p, f->file);
    key.build_id = intern_string(p, f->build_id);
    uint64_t hash = frame_hash(&key);
    size_t pos = SIZE_MAX;
    int64_t idx;
    while ((idx = stoke_index_table_next(&im->frame_index, hash, &pos)) >= 0)
        if (frame_equal(&p->frames[idx], &key))
            return (uint32_t)idx;
    p->frames = stoke_grow(p->frames, &im->frames_cap, p->nframes + 1, sizeof *p->frames);
    p->frames[p->nframes] = key;
    stoke_index_table_add(&im->frame_index, hash, (uint32_t)p->nframes);
    return (uint32_t)p->nframes++;
}

/* --- stacks and rows ------------------------------------------------------ */

static uint64_t stack_hash(const uint32_t *frames, size_t n)
{
    return stoke_hash_bytes(frames, n * sizeof *frames);
}

static int stack_equal(const struct stoke_profile *p, uint32_t stack,
                       const uint32_t *frames, size_t n)
{
    return p->stack_len[stack] == n &&
           (n == 0 || memcmp(p->stack_frames + p->stack_start[stack], frames,
                             n * sizeof *frames) == 0);
}

static uint32_t append_stack(struct stoke_profile *p, const uint32_t *frames, size_t n)
{
    struct profile_impl *im = impl_of(p);
    size_t s = p->nstacks;
    p->stack_frames = stoke_grow(p->stack_frames, &im->stack_frames_cap, im->nstack_frames + n,
               sizeof *p->stack_frames);
    if (n)
        memcpy(p->stack_frames + im->nstack_frames, frames, n * sizeof *frames);
    p->stack_start = stoke_grow(p->stack_start, &im->stack_start_cap, s + 1, sizeof *p->stack_start);
    p->stack_len = stoke_grow(p->stack_len, &im->stack_len_cap, s + 1, sizeof *p->stack_len);
    p->rows = stoke_grow(p->rows, &im->rows_cap, s + 1, sizeof *p->rows);
    p->stack_start[s] = (uint32_t)im->nstack_frames;
    p->stack_len[s] = (uint32_t)n;
    memset(&p->rows[s], 0, sizeof p->rows[s]);
    p->rows[s].stack = (uint32_t)s;
    im->nstack_frames += n;
    p->nstacks = p->nrows = s + 1;
    return (uint32_t)s;
}

uint32_t stoke_profile_stack(struct stoke_profile *p, const uint32_t *frames, size_t n)
{
    struct profile_impl *im = impl_of(p);
    uint64_t hash = stack_hash(frames, n);
    size_t pos = SIZE_MAX;
    int64_t idx;
    while ((idx = stoke_index_table_next(&im->stack_index, hash, &pos)) >= 0)
        if (stack_equal(p, (uint32_t)idx, frames, n))
            return (uint32_t)idx;
    uint32_t s = append_stack(p, frames, n);
    stoke_index_table_add(&im->stack_index, hash, s);
    return s;
}

void stoke_profile_add_to_stack(struct stoke_profile *p, uint32_t stack, const int64_t *values)
{
    struct stoke_row *row = &p->rows[stack];
    for (size_t i = 0; i < p->nvalues; i++)
        row->values[i] += values[i];
}

void stoke_profile_add(struct stoke_profile *p, const uint32_t *frames, size_t n,
                       const int64_t *values)
{
    stoke_profile_add_to_stack(p, stoke_profile_stack(p, frames, n), values);
}

/* --- processes and totals ------------------------------------------------- */

struct stoke_process_summary *stoke_profile_add_process(struct stoke_profile *p)
{
    struct profile_impl *im = impl_of(p);
    p->procs = stoke_grow(p->procs, &im->procs_cap, p->nprocs + 1, sizeof *p->procs);
    struct stoke_process_summary *s = &p->procs[p->nprocs++];
    memset(s, 0, sizeof *s);
    s->root_frame = UINT32_MAX;
    return s;
}

void stoke_profile_remove_last_process(struct stoke_profile *p)
{
    if (!p->nprocs)
        return;
    struct stoke_process_summary *s = &p->procs[--p->nprocs];
    free(s->comm);
    free(s->trace_path);
}

int64_t stoke_profile_total(const struct stoke_profile *p, size_t i)
{
    int64_t total = 0;
    if (i >= p->nvalues)
        return 0;
    for (size_t r = 0; r < p->nrows; r++)
        total += p->rows[r].values[i];
    return total;
}
