/*
 * source_snippets.h - lines of source around a report's hot lines, read
 * from the source files while the report is written, so the report shows
 * the code that was hot wherever it is opened later.
 *
 * Hot lines are the entries of the tabs' line tables (line_table.h),
 * hottest first by their share of their tab's total (value 0). Each takes
 * its line and SOURCE_CONTEXT lines either side, until SOURCE_BUDGET bytes
 * of source text are taken in all; a line longer than SOURCE_MAX_LINE
 * bytes is cut there. A file that cannot be read (gone, moved, a relative
 * path, not a regular file, larger than SOURCE_MAX_FILE) gives no lines:
 * the report then names the line alone. Only the files that binaries of
 * this machine name in their own debug information are read, never those
 * a recording's stored names give (a recording from elsewhere could name
 * any file here, to have it copied into a report). The text goes into the
 * report escaped like any string (escape.h).
 *
 * Never: reads a file twice, more than SOURCE_MAX_FILE of one, more than
 * SOURCE_MAX_FILES files or SOURCE_MAX_READ bytes in all, or keeps the
 * text of a file none of whose lines the report keeps.
 */
#ifndef STOKE_SOURCE_SNIPPETS_H
#define STOKE_SOURCE_SNIPPETS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "index_table.h"
#include "line_table.h"

#define SOURCE_BUDGET (200 * 1024)
#define SOURCE_CONTEXT 3
#define SOURCE_MAX_LINE 400
#define SOURCE_MAX_FILE (16u << 20)
#define SOURCE_MAX_FILES 1024
#define SOURCE_MAX_READ (64u << 20)

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
    struct stoke_index_table index; /* files by path */
    size_t bytes;      /* of source kept */
    size_t bytes_read; /* of the files read */
};

/* Reads the lines around the hot lines of tables[0..ntables) (the line
 * tables of tabs whose value 0 totals are totals[0..ntables)); the files
 * left hold lines the report keeps. Returns 0, or -1 when out of memory. */
int source_snippets_gather(struct source_snippets *s, const struct line_table *tables,
                           const int64_t *totals, size_t ntables);

/* Writes the kept lines as the report's "sources": each run of kept lines
 * of a file as its file (string_rank[its string]), its first line number
 * and its lines' text. */
void source_snippets_write(FILE *out, const struct source_snippets *s,
                           const uint32_t *string_rank);

void source_snippets_free(struct source_snippets *s);

#endif
