/*
 * line_reader.h - reads the lines of a file that someone else may have
 * shaped, in memory bounded whatever the file holds: lines longer than the
 * reader's limit are skipped whole, and reading ends after a given number
 * of bytes (the rest of the file is never read).
 *
 * Never: allocates per line, or reads past the byte limit.
 */
#ifndef STOKE_LINE_READER_H
#define STOKE_LINE_READER_H

#include <stddef.h>
#include <stdint.h>

#define STOKE_LINE_CHUNK 65536

struct stoke_line_reader {
    int fd;
    uint64_t byte_limit;  /* read at most this many bytes of the file */
    uint64_t bytes_read;
    int at_end;           /* end of file, error, or the byte limit reached */
    int cut_short;        /* the byte limit was reached with more to read */
    char chunk[STOKE_LINE_CHUNK];
    size_t chunk_len, chunk_pos;
    char *line;           /* the line being assembled, NUL-terminated */
    size_t line_len, line_max;
    int too_long;         /* the line being assembled passed line_max */
};

/* Starts reading fd (not closed by the reader); lines of at most line_max
 * bytes are returned. */
void stoke_line_reader_init(struct stoke_line_reader *r, int fd, uint64_t byte_limit,
                            size_t line_max);

/* The next line, without its newline: returns 1 with *line (NUL-terminated,
 * valid until the next call) and *len, or 0 when no line is left. A last
 * line without a newline counts; a line cut by the byte limit does not. */
int stoke_line_reader_next(struct stoke_line_reader *r, const char **line, size_t *len);

/* 1 when the reading ended at the byte limit with more of the file left. */
int stoke_line_reader_cut_short(const struct stoke_line_reader *r);

void stoke_line_reader_free(struct stoke_line_reader *r);

#endif
