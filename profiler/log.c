/*
 * log.c - formats a user message into a stack buffer and writes it to
 * stderr in one write(2), so lines of several processes do not interleave.
 * Must never allocate (the malloc hooks may call it) and never change errno.
 */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void agent_log(const char *fmt, ...)
{
    int saved_errno = errno;
    char line[512];
    int n = snprintf(line, sizeof line, "stoke: ");
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
    (void)ignored;
    errno = saved_errno;
}
