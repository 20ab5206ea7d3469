/*
 * procfs.h - reads small files of /proc/self (command name, command line,
 * thread names) without stdio. Normal context only.
 */
#ifndef STOKE_AGENT_PROCFS_H
#define STOKE_AGENT_PROCFS_H

#include <stddef.h>

/* Reads up to cap bytes of path into buf; returns the length (0 on error). */
size_t procfs_read(const char *path, char *buf, size_t cap);

/* Reads a one-line file (comm) into buf as a string without its newline. */
void procfs_read_line(const char *path, char *buf, size_t cap);

#define PROCFS_NO_FIELD (-2)

/* A number of /proc/self/status ("Threads", "Seccomp") read with buf;
 * -1 when the file cannot be read, PROCFS_NO_FIELD when it has no such
 * line. Leaves errno as it was. */
int procfs_status_number(const char *field, char *buf, size_t cap);

#endif
