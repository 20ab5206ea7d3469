/*
 * measure.h - the heap values a user names with --measure: of the native
 * heap (live-bytes, live-objects, alloc-bytes, alloc-objects) and of the
 * JavaScript heap (js-shallow, also called js-retained, and js-objects),
 * and values written with their unit for text outputs.
 */
#ifndef STOKE_CLI_MEASURE_H
#define STOKE_CLI_MEASURE_H

#include <stddef.h>
#include <stdint.h>

/* No --measure given. Otherwise a measure is an enum stoke_heap_value, or
 * MEASURE_JS + an enum stoke_js_heap_value. */
#define MEASURE_UNSET (-1)
#define MEASURE_JS 16
#define MEASURE_JS_SHALLOW (MEASURE_JS + 0) /* STOKE_JS_HEAP_SHALLOW_BYTES */
#define MEASURE_JS_OBJECTS (MEASURE_JS + 1) /* STOKE_JS_HEAP_OBJECTS */

#define MEASURE_CHOICES                                                                        \
    "live-bytes, live-objects, alloc-bytes, alloc-objects (native heap), js-shallow (or "      \
    "js-retained) or js-objects (JavaScript heap)"

/* 1 for a measure of the JavaScript heap, 0 for one of the native heap or
 * MEASURE_UNSET. */
int is_js_measure(int measure);

/* The index of the measure's value in a profile of its heap. */
size_t measure_value_index(int measure);

/* The measure named text, or MEASURE_UNSET when it names none. */
int parse_measure(const char *text);

/* --measure of `stoke command`: 0 and *measure set, or -1 after a one-line
 * error naming the choices. */
int parse_measure_option(const char *command, const char *text, int *measure);

/* Its name on the command line ("live-bytes") and in prose ("live bytes"). */
const char *measure_option(int measure);
const char *measure_label(int measure);

/* A value of a profile's value type with unit unit ("bytes": in KiB/MiB/GiB,
 * anything else as a plain number), optionally signed ("+1.5 MiB"). */
void format_value(char *text, size_t len, const char *unit, int64_t value);
void format_change(char *text, size_t len, const char *unit, int64_t change);

#endif
