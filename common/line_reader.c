/*
 * line_reader.c - bounded line reading; see line_reader.h.
 *
 * Owns: the chunked reads, the byte limit and the skipping of long lines.
 * Never: interprets what a line says.
 */
#include "line_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "alloc.h"

void stoke_line_reader_init(struct stoke_line_reader *r, int fd, uint64_t byte_limit,
                            size_t line_max)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->byte_limit = byte_limit;
    r->line_max = line_max;
    r->line = stoke_xmalloc(line_max + 1);
}

void stoke_line_reader_free(struct stoke_line_reader *r)
{
    free(r->line);
    r->line = NULL;
}

/* 1 when the file goes on past the byte limit (reads one byte to know). */
static int more_past_limit(struct stoke_line_reader *r)
{
    char probe;
    ssize_t n;
    do
        n = read(r->fd, &probe, 1);
    while (n < 0 && errno == EINTR);
    return n == 1;
}

/* Reads the next chunk; returns 0 at the end (of the file or the limit). */
static int refill(struct stoke_line_reader *r)
{
    uint64_t left = r->byte_limit - r->bytes_read;
    if (r->at_end)
        return 0;
    if (left == 0) {
        r->at_end = 1;
        r->cut_short = more_past_limit(r);
        return 0;
    }
    size_t want = left < sizeof r->chunk ? (size_t)left : sizeof r->chunk;
    ssize_t n;
    do
        n = read(r->fd, r->chunk, want);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        r->at_end = 1;
        return 0;
    }
    r->bytes_read += (uint64_t)n;
    r->chunk_len = (size_t)n;
    r->chunk_pos = 0;
    return 1;
}

/* Appends bytes to the line being assembled, or marks it too long. */
static void append(struct stoke_line_reader *r, const char *bytes, size_t n)
{
    if (r->too_long || n > r->line_max - r->line_len) {
        r->too_long = 1;
        return;
    }
    memcpy(r->line + r->line_len, bytes, n);
    r->line_len += n;
}

/* Hands over the assembled line if it is not too long; starts a new one. */
static int finish_line(struct stoke_line_reader *r, const char **line, size_t *len)
{
    int whole = !r->too_long;
    r->line[r->line_len] = '\0';
    *line = r->line;
    *len = r->line_len;
    r->line_len = 0;
    r->too_long = 0;
    return whole;
}

int stoke_line_reader_next(struct stoke_line_reader *r, const char **line, size_t *len)
{
    for (;;) {
        if (r->chunk_pos == r->chunk_len && !refill(r)) {
            int last = (r->line_len > 0 || r->too_long) && !r->cut_short;
            if (last && finish_line(r, line, len))
                return 1;
            r->line_len = 0;
            r->too_long = 0;
            return 0;
        }
        const char *start = r->chunk + r->chunk_pos;
        size_t avail = r->chunk_len - r->chunk_pos;
        const char *newline = memchr(start, '\n', avail);
        size_t n = newline ? (size_t)(newline - start) : avail;
        append(r, start, n);
        r->chunk_pos += n + (newline != NULL);
        if (newline && finish_line(r, line, len))
            return 1;
    }
}

int stoke_line_reader_cut_short(const struct stoke_line_reader *r)
{
    return r->cut_short;
}
