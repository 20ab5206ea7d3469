/*
 * source_snippets.h - lines of source around a report's hot lines, read
 * from the source files while the report is written, so the report shows
 * the code that was hot wherever it is opened later.
 *
 * Hot lines are the entries of the tabs' line tables (line_table.h),
 * hottest first by their share of their tab's total (value 0). Each takes
 * its line and SOURCE_CONTEXT lines either side, until SOURCE_BUDGET bytes
 * of source are taken in all; a line longer than SOURCE_MAX_LINE bytes is
 * cut there. A file that cannot be read (gone, moved, not a regular file,
 * larger than SOURCE_MAX_FILE) gives no lines: the report then names the
 * line alone. The text goes into the report escaped like any string
 * (escape.h).
 *
 * Never: reads a file twice, or more than SOURCE_MAX_FILE of one.
 */
#ifndef STOKE_SOURCE_SNIPPETS_H
#define STOKE_SOURCE_SNIPPETS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "line_table.h"

#define SOURCE_BUDGET (200 * 1024)
#define SOURCE_CONTEXT 3
#define SOURCE_MAX_LINE 400
#define SOURCE_MAX_FILE (16u << 20)

/* One source file read, and which of its lines the report keeps. */
struct source_file {
    const char *path;
    char *text;           /* NULL: unreadable */
    uint32_t *line_start; /* byte offset of line i + 1 (line_start[nlines] = end) */
    uint32_t nlines;
    uint8_t *kept;        /* by line - 1: 1 when the report keeps it */
    uint32_t string;      /* its path's index in the report's strings (the caller's) */
};

struct source_snippets {
    struct source_file *files;
    size_t nfiles;
    size_t bytes; /* of source kept */
};

/* Reads the lines around the hot lines of tables[0..ntables) (the line
 * tables of tabs whose value 0 totals are totals[0..ntables)). Returns 0,
 * or -1 when out of memory. */
int source_snippets_gather(struct source_snippets *s, const struct line_table *tables,
                           const int64_t *totals, size_t ntables);

/* Writes the kept lines as the report's "sources": each run of kept lines
 * of a file as its file (string_rank[its string]), its first line number
 * and its lines' text. */
void source_snippets_write(FILE *out, const struct source_snippets *s,
                           const uint32_t *string_rank);

void source_snippets_free(struct source_snippets *s);

#endif
