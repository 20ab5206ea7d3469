/*
 * report_file.c - see report_file.h.
 */
#define _GNU_SOURCE /* mkostemp */
#include "report_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void describe_write_error(const char *path, int error, char *err, size_t errlen)
{
    snprintf(err, errlen, "cannot write '%s': %s; choose another place with -o", path,
             strerror(error));
}

/* A device or FIFO, opened as it is (never created, never through a link). */
static int open_in_place(struct report_file *f, char *err, size_t errlen)
{
    int fd = open(f->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || !(f->out = fdopen(fd, "w"))) {
        describe_write_error(f->path, errno, err, errlen);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return 0;
}

static int open_temporary(struct report_file *f, char *err, size_t errlen)
{
    if (snprintf(f->temporary, sizeof f->temporary, "%s.XXXXXX", f->path) >=
        (int)sizeof f->temporary) {
        describe_write_error(f->path, ENAMETOOLONG, err, errlen);
        return -1;
    }
    int fd = mkostemp(f->temporary, O_CLOEXEC); /* O_EXCL, mode 0600 */
    if (fd < 0 || !(f->out = fdopen(fd, "w"))) {
        describe_write_error(f->path, errno, err, errlen);
        if (fd >= 0) {
            close(fd);
            unlink(f->temporary);
        }
        return -1;
    }
    return 0;
}

int report_file_open(struct report_file *f, const char *path, char *err, size_t errlen)
{
    struct stat st;
    memset(f, 0, sizeof *f);
    f->path = path;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
        return open_temporary(f, err, errlen);
    if (S_ISLNK(st.st_mode)) {
        snprintf(err, errlen,
                 "'%s' is a symbolic link; stoke does not write reports through links: "
                 "remove it or choose another place with -o", path);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "'%s' is a directory; name a file with -o", path);
        return -1;
    }
    return open_in_place(f, err, errlen);
}

int report_file_close(struct report_file *f, int failed, char *err, size_t errlen)
{
    int error = failed ? (errno ? errno : EIO) : 0;
    if (fclose(f->out) && !error)
        error = errno;
    if (!error && *f->temporary && rename(f->temporary, f->path))
        error = errno;
    if (*f->temporary && error)
        unlink(f->temporary);
    if (error)
        describe_write_error(f->path, error, err, errlen);
    return error ? -1 : 0;
}
