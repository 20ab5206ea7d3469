/*
 * fuzz_file.c - see fuzz_file.h.
 */
#define _GNU_SOURCE /* memfd_create */
#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void fail(const char *what)
{
    perror(what);
    exit(1);
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("stoke-fuzz-input", MFD_CLOEXEC);
        if (fd < 0)
            fail("fuzz_file: memfd_create");
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        fail("fuzz_file: cannot write the memory file");
    return path;
}
