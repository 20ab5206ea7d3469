/*
 * line_table.c - a tab's functions by the lines they were at; see
 * line_table.h.
 *
 * Owns: the table's entries, keyed by (name, file, line), and counting each
 * site once per entry.
 * Never: looks at a frame's own file or line (where it is defined).
 */
#include "line_table.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "code_sites.h"
#include "hash.h"

/* Names and files are interned in the profile: equal is the same pointer. */
static uint64_t entry_hash(const char *name, const char *file, uint32_t line)
{
    return stoke_hash_mix(stoke_hash_mix((uintptr_t)name, (uintptr_t)file), line);
}

/* The entry of (frame's name, file, line), added with zero values if new. */
static struct line_entry *entry_of(struct line_table *t, const struct stoke_profile *p,
                                   uint32_t frame, const char *file, uint32_t line)
{
    const char *name = p->frames[frame].name;
    uint64_t hash = entry_hash(name, file, line);
    size_t pos = SIZE_MAX;
    int64_t i;
    while ((i = stoke_index_table_next(&t->index, hash, &pos)) >= 0) {
        struct line_entry *e = &t->entries[i];
        if (p->frames[e->frame].name == name && e->file == file && e->line == line)
            return e;
    }
    t->entries = stoke_grow(t->entries, &t->cap, t->n + 1, sizeof *t->entries);
    t->entries[t->n] = (struct line_entry){.frame = frame, .file = file, .line = line};
    stoke_index_table_add(&t->index, hash, (uint32_t)t->n);
    return &t->entries[t->n++];
}

static int has_value(const int64_t *values, size_t n)
{
    for (size_t v = 0; v < n; v++)
        if (values[v])
            return 1;
    return 0;
}

/* Adds site's values to the entry of each of its frames that has a line. */
static void add_site(struct line_table *t, const struct stoke_profile *p, uint32_t site)
{
    uint32_t stack = p->sites.stack[site], n = p->stack_len[stack];
    const uint32_t *frames = p->stack_frames + p->stack_start[stack];
    const int64_t *values = stoke_site_values(p, site);
    for (uint32_t i = 0; i < n; i++) {
        const struct stoke_position *at = stoke_site_position(p, site, i);
        if (!at->line)
            continue;
        struct line_entry *e = entry_of(t, p, frames[i], at->file, at->line);
        e->own_names |= at->module && p->sites.modules[at->module - 1].own_names;
        for (size_t v = 0; v < t->nvalues; v++) {
            if (i + 1 == n)
                e->self[v] += values[v];
            if (e->last_site != site + 1)
                e->total[v] += values[v];
        }
        e->last_site = site + 1;
    }
}

void line_table_build(struct line_table *t, const struct stoke_profile *p)
{
    memset(t, 0, sizeof *t);
    t->nvalues = p->nvalues;
    for (size_t site = 0; site < p->sites.n; site++)
        if (has_value(stoke_site_values(p, (uint32_t)site), p->nvalues))
            add_site(t, p, (uint32_t)site);
}

void line_table_free(struct line_table *t)
{
    free(t->entries);
    stoke_index_table_free(&t->index);
    memset(t, 0, sizeof *t);
}
