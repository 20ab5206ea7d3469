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

struct measure_name {
    int measure;
    const char *option, *label;
};

/* A measure's first entry is its name; later ones are other names for it. */
static const struct measure_name measures[] = {
    {STOKE_HEAP_LIVE_BYTES, "live-bytes", "live bytes"},
    {STOKE_HEAP_LIVE_OBJECTS, "live-objects", "live objects"},
    {STOKE_HEAP_ALLOC_BYTES, "alloc-bytes", "allocated bytes"},
    {STOKE_HEAP_ALLOC_OBJECTS, "alloc-objects", "allocated objects"},
    {MEASURE_JS_SHALLOW, "js-shallow", "JavaScript heap bytes"},
    {MEASURE_JS_SHALLOW, "js-retained", "JavaScript heap bytes"},
    {MEASURE_JS_OBJECTS, "js-objects", "JavaScript heap objects"},
};

#define NMEASURE_NAMES (sizeof measures / sizeof measures[0])

static const struct measure_name *named(int measure)
{
    for (size_t i = 0; i < NMEASURE_NAMES; i++)
        if (measures[i].measure == measure)
            return &measures[i];
    return &measures[0];
}

int parse_measure(const char *text)
{
    for (size_t i = 0; i < NMEASURE_NAMES; i++)
        if (!strcmp(text, measures[i].option))
            return measures[i].measure;
    return MEASURE_UNSET;
}

const char *measure_option(int measure)
{
    return named(measure)->option;
}

const char *measure_label(int measure)
{
    return named(measure)->label;
}

int is_js_measure(int measure)
{
    return measure >= MEASURE_JS;
}

size_t measure_value_index(int measure)
{
    return (size_t)(is_js_measure(measure) ? measure - MEASURE_JS : measure);
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
