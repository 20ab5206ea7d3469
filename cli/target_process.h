/*
 * target_process.h - what /proc tells about a running process that stoke
 * did not start: whether it exists, is ours and still runs, what it has
 * mapped, the trace it has open, and the environment it started with.
 */
#ifndef STOKE_CLI_TARGET_PROCESS_H
#define STOKE_CLI_TARGET_PROCESS_H

#include <sys/types.h>

enum target_access {
    TARGET_OURS = 0,     /* exists, and we may signal and inspect it */
    TARGET_MISSING = 1,  /* no such process */
    TARGET_FOREIGN = 2,  /* another user's (and we are not root) */
};

enum target_access check_target(pid_t pid);

/* 1 when pid has exited and waits, a zombie, for its parent to reap it
 * (the parent's pid in *parent), 0 when it runs, -1 when it cannot be
 * told. */
int target_exited(pid_t pid, pid_t *parent);

/* The path of the CPU trace pid has open (the agent's writer thread keeps
 * it open for the process's whole life), malloc'ed; NULL when it has none open (*error 0)
 * or its descriptors cannot be read (*error the errno). */
char *target_open_trace(pid_t pid, int *error);

/* 1 when a file whose name ends in file_name is mapped into pid, 0 when
 * not, -1 when the maps cannot be read. */
int target_maps_file(pid_t pid, const char *file_name);

/* The value of variable name in the environment pid started with
 * (malloc'ed), or NULL when it has none or it cannot be read. */
char *target_environ_value(pid_t pid, const char *name);

#endif
