/*
 * measure.c - the names of the heap measures and how values are written;
 * see measure.h. Never reads profiles: callers pass values and units.
 */
#include "measure.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile.h"
#include "units.h"

static const struct {
    const char *option, *label;
} measures[STOKE_HEAP_NVALUES] = {
    [STOKE_HEAP_LIVE_BYTES] = {"live-bytes", "live bytes"},
    [STOKE_HEAP_LIVE_OBJECTS] = {"live-objects", "live objects"},
    [STOKE_HEAP_ALLOC_BYTES] = {"alloc-bytes", "allocated bytes"},
    [STOKE_HEAP_ALLOC_OBJECTS] = {"alloc-objects", "allocated objects"},
};

int parse_measure(const char *text)
{
    for (int i = 0; i < STOKE_HEAP_NVALUES; i++)
        if (!strcmp(text, measures[i].option))
            return i;
    return MEASURE_UNSET;
}

const char *measure_option(int measure)
{
    return measures[measure].option;
}

const char *measure_label(int measure)
{
    return measures[measure].label;
}

static int is_bytes(const char *unit)
{
    return unit && !strcmp(unit, "bytes");
}

void format_value(char *text, size_t len, const char *unit, int64_t value)
{
    if (is_bytes(unit) && value >= 0)
        format_bytes(text, len, (uint64_t)value);
    else
        snprintf(text, len, "%" PRId64, value);
}

void format_change(char *text, size_t len, const char *unit, int64_t change)
{
    if (is_bytes(unit))
        format_byte_change(text, len, change);
    else
        snprintf(text, len, "%+" PRId64, change);
}

int parse_measure_option(const char *command, const char *text, int *measure)
{
    *measure = parse_measure(text);
    if (*measure != MEASURE_UNSET)
        return 0;
    fprintf(stderr, "stoke %s: --measure '%s' is not one of " MEASURE_CHOICES "\n", command,
            text);
    return -1;
}
