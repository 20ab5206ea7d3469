/*
 * warn.c - user-facing warnings of the offline side; see warn.h.
 *
 * Owns: the prefix and the filtering of control characters.
 * Never: exits or decides what deserves a warning.
 */
#include "warn.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

void stoke_put_printable(FILE *out, const char *s, size_t max)
{
    for (; *s && max; s++, max--) {
        unsigned char c = (unsigned char)*s;
        fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
    }
}

void stoke_warn(const char *trace_path, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    fputs("stoke: ", stderr);
    stoke_put_printable(stderr, trace_path, SIZE_MAX);
    fputs(": ", stderr);
    stoke_put_printable(stderr, message, SIZE_MAX);
    fputc('\n', stderr);
}
