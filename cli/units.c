/*
 * units.c - human units for byte counts and durations; see units.h. The one place stoke
 * turns byte counts into text and back, so every output words sizes alike.
 * Never prints.
 */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    uint64_t size;
    int decimals;
} units[] = {
    {"GiB", 1ull << 30, 2},
    {"MiB", 1ull << 20, 1},
    {"KiB", 1ull << 10, 1},
};

void format_bytes(char *text, size_t len, uint64_t bytes)
{
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (bytes >= units[i].size) {
            snprintf(text, len, "%.*f %s", units[i].decimals,
                     (double)bytes / (double)units[i].size, units[i].name);
            return;
        }
    }
    snprintf(text, len, "%" PRIu64 " B", bytes);
}

void format_byte_change(char *text, size_t len, int64_t change)
{
    uint64_t size = change < 0 ? -(uint64_t)change : (uint64_t)change;
    char amount[BYTES_TEXT_MAX];
    format_bytes(amount, sizeof amount, size);
    snprintf(text, len, "%s%s", change > 0 ? "+" : change < 0 ? "-" : "", amount);
}

static uint64_t suffix_factor(const char *suffix)
{
    if (!suffix[0])
        return 1;
    if (suffix[1])
        return 0;
    switch (toupper((unsigned char)suffix[0])) {
    case 'K':
        return 1ull << 10;
    case 'M':
        return 1ull << 20;
    case 'G':
        return 1ull << 30;
    default:
        return 0;
    }
}

int parse_bytes(const char *text, uint64_t *bytes)
{
    uint64_t value = 0;
    const char *c = text;
    if (!isdigit((unsigned char)*c))
        return -1;
    for (; isdigit((unsigned char)*c); c++) {
        unsigned digit = (unsigned)(*c - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return -1;
        value = value * 10 + digit;
    }
    uint64_t factor = suffix_factor(c);
    if (!factor || value > UINT64_MAX / factor)
        return -1;
    *bytes = value * factor;
    return 0;
}

#define WEEK_MS (7.0 * 24 * 3600 * 1000)

int parse_duration(const char *text, uint64_t *ms)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || !(value >= 0))
        return -1;
    double scale = !strcmp(end, "ms") ? 1 : !strcmp(end, "m") ? 60000 : 1000;
    if (*end && strcmp(end, "ms") && strcmp(end, "s") && strcmp(end, "m"))
        return -1;
    if (value * scale > WEEK_MS)
        return -1;
    *ms = (uint64_t)(value * scale + 0.5);
    return 0;
}
