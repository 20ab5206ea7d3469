/*
 * regular_file.c - see regular_file.h.
 */
#include "regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int stoke_open_regular(const char *path)
{
    /* O_NONBLOCK: opening a FIFO without a writer returns at once */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        return fd;
    int error = errno;
    if (fstat(fd, &st) == 0)
        error = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    close(fd);
    errno = error;
    return -1;
}
