/*
 * log.c - formats a user message into a stack buffer and writes it to
 * stderr in one write(2), so lines of several processes do not interleave.
 * Must never allocate (the malloc hooks may call it) and never change errno,
 * and writes nothing once descriptor 2 is no longer the stderr it started
 * with (a program that closed it and opened a file there).
 */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static dev_t stderr_dev;
static ino_t stderr_ino;
static int stderr_known;

void log_init(void)
{
    struct stat st;
    stderr_known = !fstat(STDERR_FILENO, &st);
    stderr_dev = st.st_dev;
    stderr_ino = st.st_ino;
}

static int stderr_unchanged(void)
{
    struct stat st;
    return stderr_known && !fstat(STDERR_FILENO, &st) && st.st_dev == stderr_dev &&
           st.st_ino == stderr_ino;
}

void agent_log(const char *fmt, ...)
{
    int saved_errno = errno;
    if (!stderr_unchanged()) {
        errno = saved_errno;
        return;
    }
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
