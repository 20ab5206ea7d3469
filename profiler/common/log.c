/*
 * log.c - formats a user message into a stack buffer and writes it to
 * stderr in one write(2), so lines of several processes do not interleave.
 * Must never allocate (the malloc hooks may call it) and never change errno,
 * and writes nothing once descriptor 2 is no longer the stderr it started
 * with (a program that closed it and opened a file there). The writer's
 * lines are written by the keeper: descriptor 2 is the program's, and the
 * writer works in a table of its own (keeper.h).
 */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keeper.h"

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

struct line {
    char text[512];
    size_t len;
};

static void write_line(void *arg)
{
    const struct line *l = arg;
    if (stderr_unchanged()) {
        ssize_t ignored = write(STDERR_FILENO, l->text, l->len);
        (void)ignored;
    }
}

void agent_log(const char *fmt, ...)
{
    int saved_errno = errno;
    struct line l;
    int n = snprintf(l.text, sizeof l.text, "stoke: ");
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(l.text + n, sizeof l.text - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof l.text - 2)
        n = (int)sizeof l.text - 2;
    l.text[n++] = '\n';
    l.len = (size_t)n;
    keeper_run(write_line, &l);
    errno = saved_errno;
}
