/*
 * process_tree.h - the processes a recording started, found through /proc
 * by parent links: stoke is a child subreaper while it records, so a
 * program that daemonizes stays in its tree.
 */
#ifndef STOKE_CLI_PROCESS_TREE_H
#define STOKE_CLI_PROCESS_TREE_H

#include <stddef.h>
#include <sys/types.h>

#include "proc_stat.h"

/* Sends sig to every live (not zombie) descendant of stoke except those
 * in process group spare (0: none); returns how many were signalled. */
int signal_descendants(int sig, pid_t spare);

/* How many live descendants of stoke are left outside process group spare. */
int count_descendants(pid_t spare);

/* Lists every live descendant of stoke in *found (malloc'ed); returns how
 * many. */
size_t list_descendants(struct proc_stat **found);

#endif
