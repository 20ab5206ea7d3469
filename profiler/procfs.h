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

/* A number of /proc/self/status ("Threads", "Seccomp"), or -1 when /proc
 * cannot tell. */
int procfs_status_number(const char *field);

#endif
