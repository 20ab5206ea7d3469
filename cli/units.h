/*
 * units.h - byte sizes as people read and write them: "512 B", "1.5 KiB",
 * "10.0 MiB", "1.20 GiB" (powers of 1024), and "512K", "16M" on the command
 * line; durations such as "30s", "500ms", "2m".
 */
#ifndef STOKE_CLI_UNITS_H
#define STOKE_CLI_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Longest text format_bytes writes, with its NUL. */
#define BYTES_TEXT_MAX 32

/* Writes bytes in the largest unit (B, KiB, MiB, GiB) it reaches. */
void format_bytes(char *text, size_t len, uint64_t bytes);

/* The same with a sign: "+1.5 MiB", "-300 B", "0 B". */
void format_byte_change(char *text, size_t len, int64_t change);

/* Reads a count of bytes: digits, optionally followed by K (x 1024), M
 * (x 1024^2) or G (x 1024^3), either case. Returns 0, or -1 when text is not such a
 * count or overflows. */
int parse_bytes(const char *text, uint64_t *bytes);

/* Reads a duration: a number (decimals allowed) with an optional unit, ms,
 * s (the default) or m. Returns 0, or -1 when text is not such a duration,
 * is negative or is longer than a week. */
int parse_duration(const char *text, uint64_t *ms);

#endif
