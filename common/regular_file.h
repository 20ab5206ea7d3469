/*
 * regular_file.h - opens the files the offline side reads (traces, the
 * modules a trace names, perf maps) only when they are regular files: a
 * FIFO, device or directory at such a path (a trace may name any path, and
 * anyone may create /tmp/perf-<pid>.map) must neither block `stoke report`
 * nor feed it endless bytes.
 *
 * Never: blocks on open, or reads the file.
 */
#ifndef STOKE_REGULAR_FILE_H
#define STOKE_REGULAR_FILE_H

/* Opens path read-only (close-on-exec). Returns the descriptor, or -1 with
 * errno set: EISDIR for a directory, EINVAL for any other file that is not
 * a regular file, else open's own. */
int stoke_open_regular(const char *path);

#endif
