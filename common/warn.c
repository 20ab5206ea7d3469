/*
 * warn.c - user-facing warnings of the offline side; see warn.h.
 *
 * Owns: the prefix and the filtering of control characters.
 * Never: exits or decides what deserves a warning.
 */
#include "warn.h"

#include <stdarg.h>
#include <stdio.h>

static char printable(unsigned char c)
{
    return c < 0x20 || c == 0x7f ? '?' : (char)c;
}

void stoke_put_printable(FILE *out, const char *s, size_t max)
{
    for (; *s && max; s++, max--)
        fputc(printable((unsigned char)*s), out);
}

/* Appends s to line[*used..len) with control characters as '?'. */
static void append_printable(char *line, size_t len, size_t *used, const char *s)
{
    for (; *s && *used + 1 < len; s++)
        line[(*used)++] = printable((unsigned char)*s);
    line[*used] = '\0';
}

/* The line is written at once: stderr is unbuffered, and a character at a
 * time would cost a system call each. */
void stoke_warn(const char *trace_path, const char *fmt, ...)
{
    char message[1024], line[1024 + 4096 + 16];
    size_t used = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    append_printable(line, sizeof line - 1, &used, "stoke: ");
    append_printable(line, sizeof line - 1, &used, trace_path);
    append_printable(line, sizeof line - 1, &used, ": ");
    append_printable(line, sizeof line - 1, &used, message);
    line[used++] = '\n';
    fwrite(line, 1, used, stderr);
}
