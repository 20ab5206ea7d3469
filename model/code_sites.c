/*
 * code_sites.c - the sites of a profile and its code modules; see
 * code_sites.h.
 *
 * Owns: interning positions, sites by (stack, positions) and modules by
 * (path, build-id, start); the sites' values.
 * Never: touches rows, stacks or samples.
 */
#include "code_sites.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "hash.h"
#include "index_table.h"

struct sites_impl {
    size_t stack_cap, start_cap, values_cap, at_cap, positions_cap, modules_cap;
    struct stoke_index_table site_index;
    struct stoke_index_table position_index;
    struct stoke_index_table module_index;
};

static struct sites_impl *impl_of(struct stoke_profile *p)
{
    if (!p->sites.impl)
        p->sites.impl = stoke_xcalloc(1, sizeof(struct sites_impl));
    return p->sites.impl;
}

/* --- positions ------------------------------------------------------------ */

static uint64_t position_hash(const struct stoke_position *at)
{
    uint64_t h = stoke_hash_mix(at->address, ((uint64_t)at->module << 32) | at->line);
    return stoke_hash_mix(h, (uintptr_t)at->file);
}

int stoke_same_position(const struct stoke_position *a, const struct stoke_position *b)
{
    return a->address == b->address && a->module == b->module && a->line == b->line &&
           a->file == b->file;
}

/* The index of position at (its file interned) in the table. */
static uint32_t position_id(struct stoke_profile *p, const struct stoke_position *position)
{
    struct stoke_site_table *t = &p->sites;
    struct sites_impl *im = impl_of(p);
    struct stoke_position at = *position;
    at.file = stoke_profile_string(p, position->file);
    uint64_t hash = position_hash(&at);
    size_t pos = SIZE_MAX;
    int64_t idx;
    while ((idx = stoke_index_table_next(&im->position_index, hash, &pos)) >= 0)
        if (stoke_same_position(&t->positions[idx], &at))
            return (uint32_t)idx;
    t->positions = stoke_grow(t->positions, &im->positions_cap, t->npositions + 1,
                              sizeof *t->positions);
    t->positions[t->npositions] = at;
    stoke_index_table_add(&im->position_index, hash, (uint32_t)t->npositions);
    return (uint32_t)t->npositions++;
}

/* --- sites ---------------------------------------------------------------- */

static uint64_t site_hash(uint32_t stack, const uint32_t *ids, size_t n)
{
    return stoke_hash_mix(stack, stoke_hash_bytes(ids, n * sizeof *ids));
}

static uint32_t append_site(struct stoke_profile *p, uint32_t stack, const uint32_t *ids,
                            size_t n)
{
    struct stoke_site_table *t = &p->sites;
    struct sites_impl *im = impl_of(p);
    size_t s = t->n;
    t->stack = stoke_grow(t->stack, &im->stack_cap, s + 1, sizeof *t->stack);
    t->start = stoke_grow(t->start, &im->start_cap, s + 1, sizeof *t->start);
    t->values = stoke_grow(t->values, &im->values_cap, (s + 1) * STOKE_MAX_VALUES,
                           sizeof *t->values);
    t->at = stoke_grow(t->at, &im->at_cap, t->nat + n, sizeof *t->at);
    if (n)
        memcpy(t->at + t->nat, ids, n * sizeof *ids);
    t->stack[s] = stack;
    t->start[s] = (uint32_t)t->nat;
    memset(t->values + s * STOKE_MAX_VALUES, 0, STOKE_MAX_VALUES * sizeof *t->values);
    t->nat += n;
    t->n = s + 1;
    return (uint32_t)s;
}

uint32_t stoke_site(struct stoke_profile *p, uint32_t stack,
                    const struct stoke_position *positions)
{
    size_t n = p->stack_len[stack];
    uint32_t *ids = stoke_xmalloc((n ? n : 1) * sizeof *ids);
    for (size_t i = 0; i < n; i++)
        ids[i] = position_id(p, &positions[i]);
    struct sites_impl *im = impl_of(p);
    uint64_t hash = site_hash(stack, ids, n);
    size_t pos = SIZE_MAX;
    int64_t idx;
    while ((idx = stoke_index_table_next(&im->site_index, hash, &pos)) >= 0)
        if (p->sites.stack[idx] == stack &&
            (n == 0 || memcmp(p->sites.at + p->sites.start[idx], ids, n * sizeof *ids) == 0))
            break;
    if (idx < 0) {
        idx = append_site(p, stack, ids, n);
        stoke_index_table_add(&im->site_index, hash, (uint32_t)idx);
    }
    free(ids);
    return (uint32_t)idx;
}

void stoke_site_add(struct stoke_profile *p, uint32_t site, const int64_t *values)
{
    int64_t *v = p->sites.values + (size_t)site * STOKE_MAX_VALUES;
    for (size_t i = 0; i < p->nvalues; i++)
        v[i] += values[i];
}

const uint32_t *stoke_site_position_ids(const struct stoke_profile *p, uint32_t site)
{
    return p->sites.at + p->sites.start[site];
}

const struct stoke_position *stoke_site_position(const struct stoke_profile *p, uint32_t site,
                                                 uint32_t i)
{
    return &p->sites.positions[p->sites.at[p->sites.start[site] + i]];
}

const int64_t *stoke_site_values(const struct stoke_profile *p, uint32_t site)
{
    return p->sites.values + (size_t)site * STOKE_MAX_VALUES;
}

/* --- modules -------------------------------------------------------------- */

static uint64_t module_hash(const struct stoke_code_module *m)
{
    uint64_t h = stoke_hash_mix((uintptr_t)m->path, (uintptr_t)m->build_id);
    return stoke_hash_mix(h, m->start);
}

uint32_t stoke_code_module(struct stoke_profile *p, const struct stoke_code_module *m)
{
    struct stoke_site_table *t = &p->sites;
    struct sites_impl *im = impl_of(p);
    struct stoke_code_module key = *m;
    key.path = stoke_profile_string(p, m->path);
    key.build_id = stoke_profile_string(p, m->build_id);
    uint64_t hash = module_hash(&key);
    size_t pos = SIZE_MAX;
    int64_t idx;
    while ((idx = stoke_index_table_next(&im->module_index, hash, &pos)) >= 0) {
        const struct stoke_code_module *o = &t->modules[idx];
        if (o->path == key.path && o->build_id == key.build_id && o->start == key.start)
            return (uint32_t)idx + 1;
    }
    t->modules = stoke_grow(t->modules, &im->modules_cap, t->nmodules + 1, sizeof *t->modules);
    t->modules[t->nmodules] = key;
    stoke_index_table_add(&im->module_index, hash, (uint32_t)t->nmodules);
    return (uint32_t)++t->nmodules;
}

/* --- all sites ------------------------------------------------------------ */

void stoke_sites_clear_values(struct stoke_profile *p)
{
    if (p->sites.n)
        memset(p->sites.values, 0, p->sites.n * STOKE_MAX_VALUES * sizeof *p->sites.values);
}

void stoke_sites_free(struct stoke_site_table *t)
{
    struct sites_impl *im = t->impl;
    if (im) {
        stoke_index_table_free(&im->site_index);
        stoke_index_table_free(&im->position_index);
        stoke_index_table_free(&im->module_index);
        free(im);
    }
    free(t->stack);
    free(t->start);
    free(t->values);
    free(t->at);
    free(t->positions);
    free(t->modules);
}
