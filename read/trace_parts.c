/*
 * trace_parts.c - the names of a trace's parts; see trace_parts.h.
 */
#include "trace_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "stoke_format.h"

#define TRACE_SUFFIX ".stoke"
#define MAX_PARTS 1000000000u

static int ends_with(const char *name, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len > n && !memcmp(name + len - n, suffix, n);
}

char *stoke_part_beside(const char *path, const char *name)
{
    size_t len = strlen(name);
    if (!len || strchr(name, '/') || !ends_with(name, len, TRACE_SUFFIX))
        return NULL;
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    char *beside = stoke_xmalloc(dir + len + 1);
    memcpy(beside, path, dir);
    memcpy(beside + dir, name, len + 1);
    return beside;
}

/* The part number N of name[0..len) ending in ".part-N.stoke", and the
 * length of its stem in *stem; 1 when it has none. */
static unsigned parse_part(const char *name, size_t len, size_t *stem)
{
    *stem = len;
    if (!ends_with(name, len, TRACE_SUFFIX))
        return 1;
    size_t end = len - strlen(TRACE_SUFFIX), start = end;
    while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9')
        start--;
    size_t infix = strlen(STOKE_PART_INFIX);
    if (start == end || end - start > 9 || name[start] == '0' || start < infix ||
        memcmp(name + start - infix, STOKE_PART_INFIX, infix))
        return 1;
    unsigned part = (unsigned)strtoul(name + start, NULL, 10);
    if (part < 2 || part > MAX_PARTS)
        return 1;
    *stem = start - infix;
    return part;
}

size_t stoke_part_stem(const char *name)
{
    size_t len = strlen(name), stem;
    if (parse_part(name, len, &stem) > 1)
        return stem;
    return ends_with(name, len, TRACE_SUFFIX) ? len - strlen(TRACE_SUFFIX) : len;
}

unsigned stoke_part_number(const char *name)
{
    size_t stem;
    return parse_part(name, strlen(name), &stem);
}

int stoke_previous_part_name(const char *name, char *prev, size_t len)
{
    size_t stem;
    unsigned part = parse_part(name, strlen(name), &stem);
    if (part < 2)
        return -1;
    int n = part == 2 ? snprintf(prev, len, "%.*s" TRACE_SUFFIX, (int)stem, name)
                      : snprintf(prev, len, "%.*s" STOKE_PART_INFIX "%u" TRACE_SUFFIX,
                                 (int)stem, name, part - 1);
    return n > 0 && (size_t)n < len ? 0 : -1;
}
