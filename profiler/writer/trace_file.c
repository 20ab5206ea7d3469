/*
 * trace_file.c - writes the trace file (see trace_file.h and
 * docs/trace-format.md). Runs on the writer thread only.
 *
 * Before each write the descriptor is checked to still be the file it
 * opened: a program that closes every descriptor and reuses the number
 * must never receive trace bytes.
 */
#define _GNU_SOURCE
#include "trace_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "stoke_format.h"
#include "common/agent_fds.h"
#include "common/log.h"

#define COMPRESSION_LEVEL 3

static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int create_exclusive(struct trace_file *f, const char *dir, const char *comm, pid_t pid)
{
    for (int n = 1; n < 1000; n++) {
        if (n == 1)
            snprintf(f->path, sizeof f->path, "%s/%s.%d.stoke", dir, comm, (int)pid);
        else
            snprintf(f->path, sizeof f->path, "%s/%s.%d.%d.stoke", dir, comm, (int)pid, n);
        f->fd = agent_fds_adopt(open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                                      O_CLOEXEC, 0600));
        if (f->fd >= 0 || errno != EEXIST)
            return f->fd;
    }
    return -1;
}

static void write_header(uint8_t header[STOKE_FILE_HEADER_LEN])
{
    memset(header, 0, STOKE_FILE_HEADER_LEN);
    memcpy(header, STOKE_MAGIC, STOKE_MAGIC_LEN);
    header[8] = STOKE_FORMAT_MAJOR & 0xff;
    header[9] = STOKE_FORMAT_MAJOR >> 8;
    header[10] = STOKE_FORMAT_MINOR & 0xff;
    header[11] = STOKE_FORMAT_MINOR >> 8;
}

/* Compression context, identity and header of a freshly created file. */
static int start_file(struct trace_file *f)
{
    struct stat st;
    uint8_t header[STOKE_FILE_HEADER_LEN];
    write_header(header);
    f->cctx = ZSTD_createCCtx();
    if (!f->cctx || fstat(f->fd, &st) || write_all(f->fd, header, sizeof header))
        return -1;
    ZSTD_CCtx_setParameter(f->cctx, ZSTD_c_compressionLevel, COMPRESSION_LEVEL);
    ZSTD_CCtx_setParameter(f->cctx, ZSTD_c_checksumFlag, 1); /* damage is detected, not read */
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->size = sizeof header;
    return 0;
}


int trace_file_open(struct trace_file *f, const char *dir, const char *comm, pid_t pid)
{
    memset(f, 0, sizeof *f);
    if (create_exclusive(f, dir, comm, pid) < 0) {
        agent_log("cannot create a trace in %s: %s; %s (pid %d) runs unprofiled", dir,
                  strerror(errno), comm, (int)pid);
        f->fd = -1;
        return -1;
    }
    if (start_file(f)) {
        agent_log("cannot write %s: %s; pid %d runs unprofiled", f->path, strerror(errno),
                  (int)pid);
        trace_file_close(f);
        unlink(f->path); /* not even a header: an empty file would only mislead */
        return -1;
    }
    return 0;
}

int trace_file_create(struct trace_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    if (strlen(path) >= sizeof f->path) {
        errno = ENAMETOOLONG;
        f->fd = -1;
        return -1;
    }
    strcpy(f->path, path);
    f->fd = agent_fds_adopt(open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                 0600));
    if (f->fd < 0)
        return -1;
    if (start_file(f)) {
        int err = errno;
        trace_file_close(f);
        unlink(path);
        errno = err;
        return -1;
    }
    return 0;
}

static int still_ours(const struct trace_file *f)
{
    struct stat st;
    return !fstat(f->fd, &st) && st.st_dev == f->dev && st.st_ino == f->ino;
}

int trace_file_write_frame(struct trace_file *f, const void *records, size_t len)
{
    if (f->fd < 0 || !len)
        return f->fd < 0 ? -1 : 0;
    size_t bound = ZSTD_compressBound(len);
    if (bound > f->out_cap) {
        void *grown = realloc(f->out, bound);
        if (!grown)
            return -1; /* keep the records; try again at the next flush */
        f->out = grown;
        f->out_cap = bound;
    }
    size_t n = ZSTD_compress2(f->cctx, f->out, f->out_cap, records, len);
    if (ZSTD_isError(n))
        return -1;
    if (!still_ours(f)) {
        agent_log("the program replaced the trace file %s; profiling stops", f->path);
        agent_fds_forget(f->fd);
        f->fd = -1;
        return -1;
    }
    if (write_all(f->fd, f->out, n)) {
        agent_log("cannot write %s: %s; profiling stops, the trace keeps what was written",
                  f->path, strerror(errno));
        trace_file_close(f);
        return -1;
    }
    f->size += n;
    return 0;
}

void trace_file_close(struct trace_file *f)
{
    if (f->fd >= 0 && still_ours(f))
        agent_fds_close(f->fd);
    else if (f->fd >= 0)
        agent_fds_forget(f->fd);
    f->fd = -1;
    ZSTD_freeCCtx(f->cctx);
    f->cctx = NULL;
    free(f->out);
    f->out = NULL;
    f->out_cap = 0;
}

void trace_file_discard(struct trace_file *f)
{
    int ours = f->fd >= 0 && still_ours(f);
    trace_file_close(f);
    if (ours)
        unlink(f->path);
}
