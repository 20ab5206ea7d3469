/*
 * source_snippets.c - the source around a report's hot lines; see
 * source_snippets.h.
 *
 * Owns: ordering hot lines, reading source files (bounded), which lines
 * are kept within the budget, and their layout in the report.
 * Never: writes a line of source unescaped.
 */
#include "source_snippets.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "hash.h"
#include "json_numbers.h"
#include "regular_file.h"

/* A hot line: an entry of a tab's line table, with its share of the tab. */
struct hot_line {
    const struct line_entry *entry;
    double share;
};

static int by_share(const void *a, const void *b)
{
    double x = ((const struct hot_line *)a)->share, y = ((const struct hot_line *)b)->share;
    return (x < y) - (x > y);
}

/* Every entry with a value, hottest first; NULL when out of memory. */
static struct hot_line *hot_lines(const struct line_table *tables, const int64_t *totals,
                                  size_t ntables, size_t *n)
{
    size_t count = 0;
    for (size_t t = 0; t < ntables; t++)
        count += tables[t].n;
    struct hot_line *hot = malloc((count ? count : 1) * sizeof *hot);
    if (!hot)
        return NULL;
    *n = 0;
    for (size_t t = 0; t < ntables; t++)
        for (size_t i = 0; i < tables[t].n && totals[t] > 0; i++)
            if (tables[t].entries[i].total[0] > 0 && tables[t].entries[i].own_names)
                hot[(*n)++] = (struct hot_line){&tables[t].entries[i],
                                                (double)tables[t].entries[i].total[0] /
                                                    (double)totals[t]};
    qsort(hot, *n, sizeof *hot, by_share);
    return hot;
}

/* --- reading a file ------------------------------------------------------- */

/* The whole of the regular file at path, at most SOURCE_MAX_FILE bytes and
 * not past SOURCE_MAX_READ in all; NULL when it cannot be read. */
static char *read_source(struct source_snippets *s, const char *path, size_t *len)
{
    struct stat st;
    if (*path != '/' || s->nfiles > SOURCE_MAX_FILES)
        return NULL;
    int fd = stoke_open_regular(path);
    if (fd < 0)
        return NULL;
    char *text = NULL;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size <= SOURCE_MAX_FILE &&
        s->bytes_read + (uint64_t)st.st_size <= SOURCE_MAX_READ &&
        (text = malloc((size_t)st.st_size + 1)) != NULL) {
        ssize_t got = pread(fd, text, (size_t)st.st_size, 0);
        if (got < 0) {
            free(text);
            text = NULL;
        } else {
            *len = (size_t)got;
            text[*len] = '\0';
            s->bytes_read += *len;
        }
    }
    close(fd);
    return text;
}

/* Splits f's text into lines: -1 when out of memory. */
static int index_lines(struct source_file *f, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += f->text[i] == '\n';
    f->line_start = malloc((n + 1) * sizeof *f->line_start);
    f->kept = calloc(n, 1);
    if (!f->line_start || !f->kept)
        return -1;
    f->nlines = 0;
    f->line_start[0] = 0;
    for (size_t i = 0; i < len; i++)
        if (f->text[i] == '\n')
            f->line_start[++f->nlines] = (uint32_t)i + 1;
    if (len && f->text[len - 1] != '\n')
        f->line_start[++f->nlines] = (uint32_t)len + 1; /* as if it ended in '\n' */
    return 0;
}

/* The file at path, read on first use; NULL when out of memory. */
static struct source_file *file_of(struct source_snippets *s, const char *path)
{
    uint64_t hash = stoke_hash_bytes(path, strlen(path));
    size_t pos = SIZE_MAX;
    int64_t i;
    while ((i = stoke_index_table_next(&s->index, hash, &pos)) >= 0)
        if (strcmp(s->files[i].path, path) == 0)
            return &s->files[i];
    struct source_file *grown = realloc(s->files, (s->nfiles + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    s->files = grown;
    struct source_file *f = &s->files[s->nfiles];
    memset(f, 0, sizeof *f);
    f->path = path;
    size_t len = 0;
    f->text = read_source(s, path, &len);
    stoke_index_table_add(&s->index, hash, (uint32_t)s->nfiles++);
    if (f->text && index_lines(f, len) < 0)
        return NULL;
    return f;
}

/* Forgets the files none of whose lines are kept. */
static void drop_unkept(struct source_snippets *s)
{
    size_t kept = 0;
    for (size_t i = 0; i < s->nfiles; i++) {
        struct source_file *f = &s->files[i];
        int any = 0;
        for (uint32_t l = 0; f->text && l < f->nlines && !any; l++)
            any = f->kept[l];
        if (any) {
            s->files[kept++] = *f;
            continue;
        }
        free(f->text);
        free(f->line_start);
        free(f->kept);
    }
    s->nfiles = kept;
    stoke_index_table_free(&s->index); /* the files moved */
    memset(&s->index, 0, sizeof s->index);
}

/* --- keeping lines -------------------------------------------------------- */

/* The bytes line (1 ...) of f takes in the report, cut to SOURCE_MAX_LINE. */
static size_t line_bytes(const struct source_file *f, uint32_t line)
{
    size_t len = f->line_start[line] - f->line_start[line - 1] - 1;
    return len < SOURCE_MAX_LINE ? len + 1 : SOURCE_MAX_LINE + 1;
}

/* Keeps line and its context when the budget allows it. */
static void keep_around(struct source_snippets *s, struct source_file *f, uint32_t line)
{
    if (!f->text || line > f->nlines)
        return;
    uint32_t first = line > SOURCE_CONTEXT ? line - SOURCE_CONTEXT : 1;
    uint32_t last = line + SOURCE_CONTEXT < f->nlines ? line + SOURCE_CONTEXT : f->nlines;
    size_t bytes = 0;
    for (uint32_t l = first; l <= last; l++)
        bytes += f->kept[l - 1] ? 0 : line_bytes(f, l);
    if (s->bytes + bytes > SOURCE_BUDGET)
        return;
    for (uint32_t l = first; l <= last; l++)
        f->kept[l - 1] = 1;
    s->bytes += bytes;
}

int source_snippets_gather(struct source_snippets *s, const struct line_table *tables,
                           const int64_t *totals, size_t ntables)
{
    size_t n;
    memset(s, 0, sizeof *s);
    struct hot_line *hot = hot_lines(tables, totals, ntables, &n);
    if (!hot)
        return -1;
    for (size_t i = 0; i < n && s->bytes < SOURCE_BUDGET; i++) {
        struct source_file *f = file_of(s, hot[i].entry->file);
        if (!f) {
            free(hot);
            return -1;
        }
        keep_around(s, f, hot[i].entry->line);
    }
    free(hot);
    drop_unkept(s);
    return 0;
}

/* --- writing -------------------------------------------------------------- */

/* Writes line (1 ...) of f as a JSON string, cut to SOURCE_MAX_LINE bytes. */
static void write_line(FILE *out, const struct source_file *f, uint32_t line)
{
    size_t len = line_bytes(f, line) - 1;
    char *text = f->text + f->line_start[line - 1];
    if (len && text[len - 1] == '\r') /* a line ended "\r\n" */
        len--;
    char saved = text[len];
    text[len] = '\0';
    escape_json_string(out, text);
    text[len] = saved;
}

/* The runs of kept lines, as three parallel lists. */
struct runs_writer {
    FILE *out;
    const struct source_snippets *s;
    const uint32_t *string_rank;
};

/* Calls emit for each run of kept lines: (file, first line, last line). */
static void each_run(const struct runs_writer *w,
                     void (*emit)(const struct runs_writer *w, const struct source_file *f,
                                  uint32_t first, uint32_t last, size_t nth))
{
    size_t nth = 0;
    for (size_t i = 0; i < w->s->nfiles; i++) {
        const struct source_file *f = &w->s->files[i];
        for (uint32_t l = 1; f->text && l <= f->nlines; l++) {
            if (!f->kept[l - 1])
                continue;
            uint32_t last = l;
            while (last < f->nlines && f->kept[last])
                last++;
            emit(w, f, l, last, nth++);
            l = last;
        }
    }
}

static void emit_file(const struct runs_writer *w, const struct source_file *f, uint32_t first,
                      uint32_t last, size_t nth)
{
    (void)first, (void)last;
    fputs(nth ? "," : "", w->out);
    write_u64(w->out, w->string_rank[f->string]);
}

static void emit_first(const struct runs_writer *w, const struct source_file *f, uint32_t first,
                       uint32_t last, size_t nth)
{
    (void)f, (void)last;
    fputs(nth ? "," : "", w->out);
    write_u64(w->out, first);
}

static void emit_text(const struct runs_writer *w, const struct source_file *f, uint32_t first,
                      uint32_t last, size_t nth)
{
    fputs(nth ? ",\n[" : "[", w->out);
    for (uint32_t l = first; l <= last; l++) {
        if (l > first)
            fputc(',', w->out);
        write_line(w->out, f, l);
    }
    fputc(']', w->out);
}

void source_snippets_write(FILE *out, const struct source_snippets *s,
                           const uint32_t *string_rank)
{
    const struct runs_writer w = {out, s, string_rank};
    fputs(",\n\"sources\":{\"file\":[", out);
    each_run(&w, emit_file);
    fputs("],\"first\":[", out);
    each_run(&w, emit_first);
    fputs("],\n\"text\":[", out);
    each_run(&w, emit_text);
    fputs("]}", out);
}

void source_snippets_free(struct source_snippets *s)
{
    for (size_t i = 0; i < s->nfiles; i++) {
        free(s->files[i].text);
        free(s->files[i].line_start);
        free(s->files[i].kept);
    }
    free(s->files);
    stoke_index_table_free(&s->index);
    memset(s, 0, sizeof *s);
}
