/*
 * trace_parts.c - the parts of a long trace; see trace_parts.h.
 *
 * Owns: the sizes of the finished parts still on disk and which to remove.
 * Never: writes records (the writer does), or removes the part being
 * written.
 */
#include "trace_parts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

#define TRACE_SUFFIX ".stoke"

void trace_parts_init(struct trace_parts *t, uint64_t max_bytes, const char *first_path)
{
    memset(t, 0, sizeof *t);
    size_t stem = strlen(first_path) - strlen(TRACE_SUFFIX); /* trace_file.h names it so */
    if (!max_bytes || stem >= sizeof t->stem)
        return;
    t->max_bytes = max_bytes;
    t->part_bytes = max_bytes / STOKE_TRACE_PARTS;
    t->next_try = t->part_bytes;
    memcpy(t->stem, first_path, stem);
    t->current = t->oldest = 1;
}

int trace_parts_due(const struct trace_parts *t, uint64_t size)
{
    return t->max_bytes && size >= t->next_try;
}

uint64_t trace_parts_frame_bytes(const struct trace_parts *t, uint64_t most)
{
    return t->max_bytes && t->part_bytes < most ? t->part_bytes : most;
}

static int part_path(const struct trace_parts *t, uint32_t part, char *path, size_t len)
{
    int n = part == 1 ? snprintf(path, len, "%s" TRACE_SUFFIX, t->stem)
                      : snprintf(path, len, "%s" STOKE_PART_INFIX "%u" TRACE_SUFFIX, t->stem,
                                 part);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int trace_parts_next_path(const struct trace_parts *t, char *path, size_t len)
{
    if (!part_path(t, t->current + 1, path, len))
        return 0;
    errno = ENAMETOOLONG;
    return -1;
}

void trace_parts_not_started(struct trace_parts *t, uint64_t size)
{
    t->next_try = size + t->part_bytes;
}

static uint64_t kept_bytes(const struct trace_parts *t)
{
    uint64_t sum = 0;
    for (uint32_t part = t->oldest; part < t->current; part++)
        sum += t->sizes[part % STOKE_TRACE_PARTS];
    return sum;
}

static void remove_oldest(struct trace_parts *t)
{
    char path[sizeof t->stem + 32];
    if (!part_path(t, t->oldest, path, sizeof path) && unlink(path))
        agent_log("cannot remove %s, the oldest part of the trace: %s", path, strerror(errno));
    t->oldest++;
}

uint32_t trace_parts_advanced(struct trace_parts *t, uint64_t size)
{
    t->sizes[t->current % STOKE_TRACE_PARTS] = size;
    t->current++;
    t->next_try = t->part_bytes;
    while (t->oldest < t->current &&
           (kept_bytes(t) + 2 * t->part_bytes > t->max_bytes ||
            t->current - t->oldest >= STOKE_TRACE_PARTS))
        remove_oldest(t);
    return t->current;
}
