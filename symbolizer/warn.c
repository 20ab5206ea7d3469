/*
 * warn.c - user-facing warnings of the offline side; see warn.h.
 *
 * Owns: the prefix and the filtering of control characters.
 * Never: exits or decides what deserves a warning.
 */
#include "warn.h"

#include <stdarg.h>
#include <stdio.h>

static void put_printable(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        fputc(c < 0x20 || c == 0x7f ? '?' : c, stderr);
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
    put_printable(trace_path);
    fputs(": ", stderr);
    put_printable(message);
    fputc('\n', stderr);
}
