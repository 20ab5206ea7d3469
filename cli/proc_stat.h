/*
 * proc_stat.h - what /proc/<pid>/stat says of a process: its command
 * name, state, parent, process group and the CPU time it used.
 */
#ifndef STOKE_CLI_PROC_STAT_H
#define STOKE_CLI_PROC_STAT_H

#include <stdint.h>
#include <sys/types.h>

struct proc_stat {
    pid_t pid, ppid, pgid;
    char state;      /* 'R', 'S', ...; 'Z' a zombie */
    char comm[32];   /* its command name */
    uint64_t cpu_us; /* CPU time (user and system) it used so far */
};

/* Reads /proc/<pid>/stat, pid given as its /proc name. Returns 0, or -1
 * when the process is gone or the file cannot be read. */
int read_proc_stat(const char *pid, struct proc_stat *out);

#endif
