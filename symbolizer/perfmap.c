/*
 * perfmap.c - the perf map file reader; see perfmap.h.
 *
 * Owns: parsing "START SIZE name" lines and looking addresses up in them.
 * Never: fails on a malformed line (it is skipped).
 */
#include "perfmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "alloc.h"
#include "arena.h"
#include "regular_file.h"

struct jit_symbol {
    uint64_t start, size;
    size_t order; /* line number, so later lines win */
    const char *name;
};

struct stoke_perfmap {
    struct jit_symbol *symbols; /* sorted by start, one per start */
    size_t nsymbols;
    struct stoke_arena names;
};

/* Parses "START SIZE name"; returns 0 and fills sym, or -1. */
static int parse_line(struct stoke_perfmap *m, char *line, struct jit_symbol *sym)
{
    char *p = line, *end;
    sym->start = strtoull(p, &end, 16);
    if (end == p || *end != ' ')
        return -1;
    p = end;
    sym->size = strtoull(p, &end, 16);
    if (end == p || *end != ' ')
        return -1;
    p = end + 1;
    size_t len = strcspn(p, "\r\n");
    if (len == 0)
        return -1;
    sym->name = stoke_arena_strndup(&m->names, p, len);
    return 0;
}

static int by_start_then_order(const void *a, const void *b)
{
    const struct jit_symbol *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Sorts and keeps the last-written symbol of each start address. */
static void sort_and_dedup(struct stoke_perfmap *m)
{
    qsort(m->symbols, m->nsymbols, sizeof *m->symbols, by_start_then_order);
    size_t kept = 0;
    for (size_t i = 0; i < m->nsymbols; i++) {
        if (kept && m->symbols[kept - 1].start == m->symbols[i].start)
            kept--;
        m->symbols[kept++] = m->symbols[i];
    }
    m->nsymbols = kept;
}

struct stoke_perfmap *stoke_perfmap_load(const char *path)
{
    int fd = stoke_open_regular(path);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct stoke_perfmap *m = stoke_xcalloc(1, sizeof *m);
    size_t cap = 0, line_cap = 0;
    char *line = NULL;
    struct jit_symbol sym;
    while (getline(&line, &line_cap, f) > 0) {
        if (parse_line(m, line, &sym) < 0)
            continue;
        sym.order = m->nsymbols;
        m->symbols = stoke_grow(m->symbols, &cap, m->nsymbols + 1, sizeof *m->symbols);
        m->symbols[m->nsymbols++] = sym;
    }
    free(line);
    fclose(f);
    if (!m->nsymbols) {
        stoke_perfmap_free(m);
        return NULL;
    }
    sort_and_dedup(m);
    return m;
}

const char *stoke_perfmap_lookup(const struct stoke_perfmap *m, uint64_t addr)
{
    size_t lo = 0, hi = m->nsymbols; /* find the last symbol with start <= addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->symbols[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct jit_symbol *s = &m->symbols[lo - 1];
    return addr - s->start < s->size ? s->name : NULL;
}

void stoke_perfmap_free(struct stoke_perfmap *m)
{
    if (!m)
        return;
    stoke_arena_free(&m->names);
    free(m->symbols);
    free(m);
}
