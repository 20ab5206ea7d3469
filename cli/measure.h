/*
 * measure.h - the heap values a user names with --measure (live-bytes,
 * live-objects, alloc-bytes, alloc-objects), and values written with their
 * unit for text outputs.
 */
#ifndef STOKE_CLI_MEASURE_H
#define STOKE_CLI_MEASURE_H

#include <stddef.h>
#include <stdint.h>

/* No --measure given. Otherwise a measure is an enum stoke_heap_value. */
#define MEASURE_UNSET (-1)

#define MEASURE_CHOICES "live-bytes, live-objects, alloc-bytes or alloc-objects"

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
