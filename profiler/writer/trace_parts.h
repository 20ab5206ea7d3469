/*
 * trace_parts.h - bounds the disk a long trace takes (STOKE_MAX_SIZE): the
 * trace goes on in parts of a share of the bound each, and the oldest parts
 * are removed so that those kept and the one being written fit in it. This
 * file keeps the count and the names; the writer writes each part whole
 * (writer.c, docs/trace-format.md: PART and NEXT_PART).
 */
#ifndef STOKE_AGENT_TRACE_PARTS_H
#define STOKE_AGENT_TRACE_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "stoke_format.h"

struct trace_parts {
    uint64_t max_bytes;       /* the bound; 0: the trace is one file */
    uint64_t part_bytes;      /* a part's share of it */
    uint64_t next_try;        /* size of the current part at which to start the next */
    char stem[4096];          /* the first part's path less ".stoke" */
    uint32_t current;         /* the part being written, from 1 */
    uint32_t oldest;          /* the oldest part still on disk */
    uint64_t sizes[STOKE_TRACE_PARTS]; /* of the finished parts kept, by number */
};

/* Sets up the parts of the trace whose first part is at first_path, to
 * take at most max_bytes (0: no bound, one file).
 * Context: writer. */
void trace_parts_init(struct trace_parts *t, uint64_t max_bytes, const char *first_path);

/* 1 when the current part, of size bytes, has had its share: the writer
 * starts the next one.
 * Context: writer. */
int trace_parts_due(const struct trace_parts *t, uint64_t size);

/* The most records to keep before writing them as a frame, given the
 * writer's own most: a part passes its share by one frame at most, and a
 * frame compresses to a fraction of its records.
 * Context: writer. */
uint64_t trace_parts_frame_bytes(const struct trace_parts *t, uint64_t most);

/* The path of the next part in path (len bytes); -1 when it does not fit.
 * Context: writer. */
int trace_parts_next_path(const struct trace_parts *t, char *path, size_t len);

/* The next part could not be created: the current one goes on and the
 * writer tries again when it has grown by another share.
 * Context: writer. */
void trace_parts_not_started(struct trace_parts *t, uint64_t size);

/* The current part was finished at size bytes and the next one started:
 * removes the oldest parts while those kept and two shares (the new part
 * may pass its share by a frame) would pass the bound. Returns the number
 * of the new current part.
 * Context: writer. */
uint32_t trace_parts_advanced(struct trace_parts *t, uint64_t size);

#endif
