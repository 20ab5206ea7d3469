/*
 * trace_file.h - the agent's output file: creates it safely, writes the
 * file header and compressed frames, and notices when the program has
 * closed or replaced its descriptor.
 */
#ifndef STOKE_AGENT_TRACE_FILE_H
#define STOKE_AGENT_TRACE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct trace_file {
    int fd;              /* -1 when closed or failed */
    dev_t dev;
    ino_t ino;
    void *cctx;          /* zstd compression context */
    void *out;           /* compressed frame buffer */
    size_t out_cap;
    uint64_t size;       /* bytes written: header and frames */
    char path[4096];
};

/* Creates <dir>/<comm>.<pid>.stoke (or .<pid>.N.stoke if taken) with
 * O_EXCL|O_NOFOLLOW and mode 0600, and writes the file header. Returns 0,
 * or -1 after telling the user once on stderr.
 * Context: writer. */
int trace_file_open(struct trace_file *f, const char *dir, const char *comm, pid_t pid);

/* Creates exactly path (O_EXCL|O_NOFOLLOW, 0600) and writes the header.
 * Returns 0, or -1 with errno set; reports nothing itself.
 * Context: writer. */
int trace_file_create(struct trace_file *f, const char *path);

/* Compresses len bytes of records as one zstd frame and appends it.
 * Returns 0, or -1 (file closed, error reported once).
 * Context: writer. */
int trace_file_write_frame(struct trace_file *f, const void *records, size_t len);

/* Closes the file (when it is still the one opened) and frees the
 * compressor; f is closed after, also when it was closed before.
 * Context: writer, program. */
void trace_file_close(struct trace_file *f);

/* Closes the trace and removes its file: it holds nothing worth reading.
 * Context: writer. */
void trace_file_discard(struct trace_file *f);

#endif
