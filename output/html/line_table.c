/*
 * line_table.c - a tab's frames by the lines they were at; see
 * line_table.h.
 *
 * Owns: the hash table over (frame, file, line) and counting each site
 * once per entry.
 * Never: looks at a frame's own file or line (where it is defined).
 */
#include "line_table.h"

#include <stdlib.h>
#include <string.h>

#include "code_sites.h"
#include "hash.h"

#define INITIAL_SLOTS 1024

static uint64_t entry_hash(uint32_t frame, const char *file, uint32_t line)
{
    return stoke_hash_mix(stoke_hash_mix(frame, (uintptr_t)file), line);
}

/* Doubles the slots when they are half full; -1 when out of memory. */
static int grow_slots(struct line_table *t)
{
    if (t->nslots && (t->n + 1) * 2 <= t->nslots)
        return 0;
    size_t nslots = t->nslots ? t->nslots * 2 : INITIAL_SLOTS;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        const struct line_entry *e = &t->entries[i];
        size_t s = entry_hash(e->frame, e->file, e->line) & (nslots - 1);
        while (slots[s])
            s = (s + 1) & (nslots - 1);
        slots[s] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

/* The entry of (frame, file, line), added with zero values if new; NULL
 * when out of memory. */
static struct line_entry *entry_of(struct line_table *t, uint32_t frame, const char *file,
                                   uint32_t line)
{
    if (grow_slots(t) < 0)
        return NULL;
    size_t s = entry_hash(frame, file, line) & (t->nslots - 1);
    for (; t->slots[s]; s = (s + 1) & (t->nslots - 1)) {
        struct line_entry *e = &t->entries[t->slots[s] - 1];
        if (e->frame == frame && e->file == file && e->line == line)
            return e;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        struct line_entry *grown = realloc(t->entries, cap * sizeof *grown);
        if (!grown)
            return NULL;
        t->entries = grown;
        t->cap = cap;
    }
    struct line_entry *e = &t->entries[t->n];
    *e = (struct line_entry){.frame = frame, .file = file, .line = line};
    t->slots[s] = (uint32_t)++t->n;
    return e;
}

/* Adds site's values to the entry of each of its frames that has a line. */
static int add_site(struct line_table *t, const struct stoke_profile *p, uint32_t site)
{
    uint32_t stack = p->sites.stack[site], n = p->stack_len[stack];
    const uint32_t *frames = p->stack_frames + p->stack_start[stack];
    const int64_t *values = stoke_site_values(p, site);
    for (uint32_t i = 0; i < n; i++) {
        const struct stoke_position *at = stoke_site_position(p, site, i);
        if (!at->line)
            continue;
        struct line_entry *e = entry_of(t, frames[i], at->file, at->line);
        if (!e)
            return -1;
        for (size_t v = 0; v < t->nvalues; v++) {
            if (i + 1 == n)
                e->self[v] += values[v];
            if (e->last_site != site + 1)
                e->total[v] += values[v];
        }
        e->last_site = site + 1;
    }
    return 0;
}

int line_table_build(struct line_table *t, const struct stoke_profile *p)
{
    memset(t, 0, sizeof *t);
    t->nvalues = p->nvalues;
    for (size_t site = 0; site < p->sites.n; site++)
        if (add_site(t, p, (uint32_t)site) < 0)
            return -1;
    return 0;
}

void line_table_free(struct line_table *t)
{
    free(t->entries);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
