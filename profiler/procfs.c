/*
 * procfs.c - see procfs.h.
 */
#include "procfs.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int procfs_status_number(const char *field)
{
    char status[4096], key[64];
    size_t len = procfs_read("/proc/self/status", status, sizeof status - 1);
    status[len] = 0;
    snprintf(key, sizeof key, "\n%s:", field);
    const char *line = strstr(status, key);
    return line ? atoi(line + strlen(key)) : -1;
}
