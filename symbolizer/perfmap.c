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
        sort_and_dedup(m);
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
