/*
 * procfs.c - see procfs.h.
 */
#define _GNU_SOURCE
#include "procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_fds.h"

size_t procfs_read(const char *path, char *buf, size_t cap)
{
    size_t len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n;
    while (len < cap && (n = read(fd, buf + len, cap - len)) > 0)
        len += (size_t)n;
    close(fd);
    return len;
}

void procfs_read_line(const char *path, char *buf, size_t cap)
{
    size_t len = procfs_read(path, buf, cap - 1);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == 0))
        len--;
    buf[len] = 0;
}

int procfs_status_number(const char *field, char *buf, size_t cap)
{
    int saved = errno;
    size_t len = procfs_read("/proc/self/status", buf, cap - 1);
    errno = saved;
    if (!len)
        return -1;
    buf[len] = 0;
    return procfs_field_number(buf, field);
}

int procfs_field_number(const char *buf, const char *field)
{
    size_t n = strlen(field);
    for (const char *line = buf; *line;) {
        if (!strncmp(line, field, n) && line[n] == ':')
            return atoi(line + n + 1);
        const char *end = strchr(line, '\n');
        if (!end)
            break;
        line = end + 1;
    }
    return PROCFS_NO_FIELD;
}

int procfs_keep(struct procfs_file *f, const char *path)
{
    procfs_close(f);
    f->fd = agent_fds_adopt(open(path, O_RDONLY | O_CLOEXEC));
    return f->fd < 0 ? -1 : 0;
}

size_t procfs_reread(const struct procfs_file *f, char *buf, size_t cap)
{
    size_t len = 0;
    ssize_t n;
    while (f->fd >= 0 && len < cap && (n = pread(f->fd, buf + len, cap - len, (off_t)len)) > 0)
        len += (size_t)n;
    return len;
}

void procfs_close(struct procfs_file *f)
{
    if (f->fd >= 0)
        agent_fds_close(f->fd);
    f->fd = -1;
}
