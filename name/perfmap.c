/*
 * perfmap.c - the perf map file reader; see perfmap.h.
 *
 * Owns: whose maps are trusted, parsing "START SIZE name" lines and looking
 * addresses up in them.
 * Never: fails on a malformed line (it is skipped), or reads a map someone
 * other than its process's user (or root) could have written.
 */
#include "perfmap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "alloc.h"
#include "arena.h"
#include "line_reader.h"
#include "regular_file.h"

struct jit_symbol {
    uint64_t start, size;
    size_t order; /* line number, so later lines win */
    const char *name;
};

struct stoke_perfmap {
    struct jit_symbol *symbols; /* sorted by start, one per start */
    size_t nsymbols, cap;
    struct stoke_arena names;
};

/* Parses "START SIZE name" (line[0..len), NUL-terminated); returns 0 and
 * fills sym, or -1. */
static int parse_line(struct stoke_perfmap *m, const char *line, size_t len,
                      struct jit_symbol *sym)
{
    const char *p = line;
    char *end;
    if (memchr(line, '\0', len))
        return -1;
    sym->start = strtoull(p, &end, 16);
    if (end == p || *end != ' ')
        return -1;
    p = end;
    sym->size = strtoull(p, &end, 16);
    if (end == p || *end != ' ')
        return -1;
    p = end + 1;
    size_t name_len = strcspn(p, "\r");
    if (name_len == 0)
        return -1;
    sym->name = stoke_arena_strndup(&m->names, p, name_len);
    return 0;
}

static int by_start_then_order(const void *a, const void *b)
{
    const struct jit_symbol *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static uint64_t end_of(const struct jit_symbol *s)
{
    return s->start + s->size < s->start ? UINT64_MAX : s->start + s->size;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every start and end, sorted, each once; returns how many. */
static size_t boundaries(const struct jit_symbol *symbols, size_t n, uint64_t *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = symbols[i].start;
        out[2 * i + 1] = end_of(&symbols[i]);
    }
    qsort(out, 2 * n, sizeof *out, by_value);
    size_t kept = 0;
    for (size_t i = 0; i < 2 * n; i++)
        if (!kept || out[kept - 1] != out[i])
            out[kept++] = out[i];
    return kept;
}

/* A max-heap of symbol indices by order: the latest line on top. */
struct latest {
    size_t *at;
    size_t n;
    const struct jit_symbol *symbols;
};

static int later(const struct latest *h, size_t a, size_t b)
{
    return h->symbols[h->at[a]].order > h->symbols[h->at[b]].order;
}

static void swap(struct latest *h, size_t a, size_t b)
{
    size_t t = h->at[a];
    h->at[a] = h->at[b];
    h->at[b] = t;
}

static void push(struct latest *h, size_t symbol)
{
    size_t i = h->n++;
    h->at[i] = symbol;
    for (; i > 0 && later(h, i, (i - 1) / 2); i = (i - 1) / 2)
        swap(h, i, (i - 1) / 2);
}

static void pop(struct latest *h)
{
    h->at[0] = h->at[--h->n];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, top = i;
        if (l < h->n && later(h, l, top))
            top = l;
        if (r < h->n && later(h, r, top))
            top = r;
        if (top == i)
            return;
        swap(h, i, top);
        i = top;
    }
}

/* Turns the lines into ranges that do not overlap, sorted by start: code
 * memory is reused, and where two lines cover an address the later one
 * names what is there now. */
static void resolve_overlaps(struct stoke_perfmap *m)
{
    size_t n = m->nsymbols, idx = 0, kept = 0;
    qsort(m->symbols, n, sizeof *m->symbols, by_start_then_order);
    uint64_t *points = stoke_xmalloc(2 * n * sizeof *points);
    size_t npoints = boundaries(m->symbols, n, points);
    struct jit_symbol *ranges = stoke_xmalloc(n * 2 * sizeof *ranges);
    struct latest h = {stoke_xmalloc(n * sizeof *h.at), 0, m->symbols};
    for (size_t b = 0; b + 1 < npoints; b++) {
        while (idx < n && m->symbols[idx].start <= points[b])
            push(&h, idx++);
        while (h.n && end_of(&m->symbols[h.at[0]]) <= points[b])
            pop(&h);
        if (!h.n)
            continue;
        const struct jit_symbol *s = &m->symbols[h.at[0]];
        struct jit_symbol *last = kept ? &ranges[kept - 1] : NULL;
        if (last && last->order == s->order && end_of(last) == points[b])
            last->size += points[b + 1] - points[b];
        else
            ranges[kept++] = (struct jit_symbol){points[b], points[b + 1] - points[b], s->order,
                                                 s->name};
    }
    free(h.at);
    free(points);
    free(m->symbols);
    m->symbols = ranges;
    m->nsymbols = m->cap = kept;
}

static int trusted(const struct stat *st, uid_t trusted_uid)
{
    return st->st_uid == trusted_uid || st->st_uid == 0;
}

static void add_symbol(struct stoke_perfmap *m, struct jit_symbol *sym)
{
    sym->order = m->nsymbols;
    m->symbols = stoke_grow(m->symbols, &m->cap, m->nsymbols + 1, sizeof *m->symbols);
    m->symbols[m->nsymbols++] = *sym;
}

/* Reads the symbols of the first STOKE_MAX_PERFMAP_BYTES of fd. */
static void read_symbols(struct stoke_perfmap *m, int fd, struct stoke_perfmap_status *status)
{
    struct stoke_line_reader reader;
    const char *line;
    size_t len;
    struct jit_symbol sym;
    stoke_line_reader_init(&reader, fd, STOKE_MAX_PERFMAP_BYTES, STOKE_MAX_PERFMAP_LINE);
    while (stoke_line_reader_next(&reader, &line, &len))
        if (parse_line(m, line, len, &sym) == 0)
            add_symbol(m, &sym);
    status->bytes_read = reader.bytes_read;
    status->cut_short = stoke_line_reader_cut_short(&reader);
    stoke_line_reader_free(&reader);
}

struct stoke_perfmap *stoke_perfmap_new(void)
{
    return stoke_xcalloc(1, sizeof(struct stoke_perfmap));
}

void stoke_perfmap_add_text(struct stoke_perfmap *m, const char *text, size_t len)
{
    char line[STOKE_MAX_PERFMAP_LINE + 1];
    struct jit_symbol sym;
    while (len) {
        const char *newline = memchr(text, '\n', len);
        size_t line_len = newline ? (size_t)(newline - text) : len;
        if (line_len <= STOKE_MAX_PERFMAP_LINE) {
            memcpy(line, text, line_len);
            line[line_len] = '\0';
            if (parse_line(m, line, line_len, &sym) == 0)
                add_symbol(m, &sym);
        }
        size_t used = newline ? line_len + 1 : line_len;
        text += used;
        len -= used;
    }
}

struct stoke_perfmap *stoke_perfmap_finish(struct stoke_perfmap *m)
{
    if (m && !m->nsymbols) {
        stoke_perfmap_free(m);
        return NULL;
    }
    if (m)
        resolve_overlaps(m);
    return m;
}

struct stoke_perfmap *stoke_perfmap_load(const char *path, uid_t trusted_uid,
                                         struct stoke_perfmap_status *status)
{
    struct stat st;
    memset(status, 0, sizeof *status);
    int fd = stoke_open_regular(path);
    if (fd < 0)
        return NULL;
    int readable = fstat(fd, &st) == 0;
    if (!readable || !trusted(&st, trusted_uid)) {
        status->untrusted = readable;
        status->owner = readable ? st.st_uid : 0;
        close(fd);
        return NULL;
    }
    status->file_bytes = (uint64_t)st.st_size;
    struct stoke_perfmap *m = stoke_xcalloc(1, sizeof *m);
    read_symbols(m, fd, status);
    close(fd);
    return stoke_perfmap_finish(m);
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
