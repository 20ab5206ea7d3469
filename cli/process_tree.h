/*
 * process_tree.h - the processes a server session started, found through
 * /proc by parent links: stoke is a child subreaper during a session, so a
 * server that daemonizes stays in its tree.
 */
#ifndef STOKE_CLI_PROCESS_TREE_H
#define STOKE_CLI_PROCESS_TREE_H

#include <sys/types.h>

/* Sends sig to every live (not zombie) descendant of stoke except those
 * in process group spare (0: none); returns how many were signalled. */
int signal_descendants(int sig, pid_t spare);

/* How many live descendants of stoke are left outside process group spare. */
int count_descendants(pid_t spare);

#endif
