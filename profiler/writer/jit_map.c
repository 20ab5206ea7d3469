/*
 * jit_map.c - follows the process's perf map into the trace; see jit_map.h.
 *
 * Owns: the map's descriptor, how far it was copied, and its removal.
 * Never: parses the names (the offline side does), copies a partial line,
 * or reads a map another user could have planted.
 */
#define _GNU_SOURCE
#include "jit_map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stoke_format.h"
#include "common/agent_fds.h"
#include "common/sandbox.h"
#include "program/runtime_names.h"

/* Room for the text of one record: its payload less the time and length. */
#define CHUNK (RECORD_MAX_PAYLOAD - 32)

static struct {
    char path[64];
    int fd;
    dev_t dev;
    ino_t ino;
    uint64_t copied; /* bytes of the file already in the trace */
    int full;        /* STOKE_MAX_JIT_MAP_BYTES reached: no more */
} map = {.fd = -1};

static char chunk[CHUNK];

void jit_map_close(void)
{
    if (map.fd >= 0)
        agent_fds_close(map.fd);
    map.fd = -1;
    map.copied = 0;
}

void jit_map_start(void)
{
    map.full = 0;
    snprintf(map.path, sizeof map.path, "/tmp/perf-%d.map", (int)getpid());
}

void jit_map_restart(void)
{
    map.copied = 0;
    map.full = 0;
}

/* A map anyone else could have put in /tmp is not the process's. */
static int trusted(const struct stat *st)
{
    return S_ISREG(st->st_mode) && (st->st_uid == geteuid() || st->st_uid == 0);
}

/* Opens the map when it exists (again when it was replaced); 0 when open. */
static int open_map(void)
{
    struct stat now;
    if (stat(map.path, &now))
        return map.fd >= 0 ? 0 : -1; /* removed: what is open can still be read */
    if (map.fd >= 0 && now.st_dev == map.dev && now.st_ino == map.ino)
        return 0;
    jit_map_close();
    int fd = open(map.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) || !trusted(&st)) {
        close(fd);
        return -1;
    }
    map.fd = agent_fds_adopt(fd);
    map.dev = st.st_dev;
    map.ino = st.st_ino;
    return 0;
}

static void emit(struct records *r, uint64_t time_us, size_t len)
{
    records_begin(r, STOKE_REC_JIT_MAP);
    records_u(r, time_us);
    records_bytes(r, chunk, len);
    records_end(r);
}

/* Leaves a line longer than a chunk (no newline in CHUNK bytes) behind:
 * returns 1 while its end is not in the file yet. */
static int skip_long_line(uint64_t size)
{
    while (map.copied < size) {
        ssize_t got = pread(map.fd, chunk, CHUNK, (off_t)map.copied);
        if (got <= 0)
            return 1;
        char *newline = memchr(chunk, '\n', (size_t)got);
        map.copied += newline ? (uint64_t)(newline - chunk) + 1 : (uint64_t)got;
        if (newline)
            return 0;
    }
    return 1;
}

/* Copies whole lines from map.copied on, one record per chunk. */
static void copy_new_lines(struct records *r, uint64_t time_us, uint64_t size)
{
    while (map.copied < size && !map.full) {
        uint64_t want = size - map.copied < CHUNK ? size - map.copied : CHUNK;
        ssize_t got = pread(map.fd, chunk, (size_t)want, (off_t)map.copied);
        if (got <= 0)
            return;
        char *last_newline = memrchr(chunk, '\n', (size_t)got);
        if (!last_newline) {
            if ((size_t)got < CHUNK || skip_long_line(size))
                return; /* the line is still being written */
            continue;
        }
        size_t len = (size_t)(last_newline - chunk) + 1;
        if (map.copied + len > STOKE_MAX_JIT_MAP_BYTES) {
            map.full = 1;
            return;
        }
        emit(r, time_us, len);
        map.copied += len;
    }
}

void jit_map_poll(struct records *r, uint64_t time_us)
{
    if (map.full || sandbox_filtered() || open_map())
        return;
    struct stat st;
    if (fstat(map.fd, &st))
        return;
    if ((uint64_t)st.st_size < map.copied) /* rewritten from the start */
        map.copied = 0;
    copy_new_lines(r, time_us, (uint64_t)st.st_size);
}

void jit_map_finish(struct records *r, uint64_t time_us)
{
    jit_map_poll(r, time_us);
    if (map.fd < 0)
        return;
    struct stat now;
    if (runtime_names_map_is_ours() && !stat(map.path, &now) && now.st_dev == map.dev &&
        now.st_ino == map.ino)
        unlink(map.path);
    jit_map_close();
}
