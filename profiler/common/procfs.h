/*
 * procfs.h - reads small files of /proc/self (command name, command line,
 * thread names, status) without stdio, and without allocating.
 */
#ifndef STOKE_AGENT_PROCFS_H
#define STOKE_AGENT_PROCFS_H

#include <stddef.h>

/* Reads up to cap bytes of path into buf; returns the length (0 on error).
 * Context: program, writer. */
size_t procfs_read(const char *path, char *buf, size_t cap);

/* Reads a one-line file (comm) into buf as a string without its newline.
 * Context: writer. */
void procfs_read_line(const char *path, char *buf, size_t cap);

/* A /proc file read again and again: kept open as one of the agent's
 * descriptors (agent_fds.h) and read from its start each time, not opened
 * anew for each read. A kept file names the process that opened it: a
 * fork child opens its own. */
struct procfs_file {
    int fd; /* -1: not open */
};

/* Opens path as f, closing what f held. Returns 0, or -1.
 * Context: writer. */
int procfs_keep(struct procfs_file *f, const char *path);

/* Reads f from its start: the length read into buf (0 when not open).
 * Context: writer. */
size_t procfs_reread(const struct procfs_file *f, char *buf, size_t cap);

/* Closes f (nothing when not open).
 * Context: writer, program. */
void procfs_close(struct procfs_file *f);

#define PROCFS_NO_FIELD (-2)

/* A number of /proc/self/status ("Threads", "Seccomp") read with buf;
 * -1 when the file cannot be read, PROCFS_NO_FIELD when it has no such
 * line. Leaves errno as it was.
 * Context: program, hooks. */
int procfs_status_number(const char *field, char *buf, size_t cap);

/* The number of the line "field:" of a status text already read, or
 * PROCFS_NO_FIELD.
 * Context: any. */
int procfs_field_number(const char *status, const char *field);

#endif
