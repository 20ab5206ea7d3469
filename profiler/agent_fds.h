/*
 * agent_fds.h - the file descriptors the agent owns inside the program:
 * its trace, each thread's perf event, a heap snapshot being written.
 *
 * They stay out of the program's way: each is moved to a high number (half
 * the descriptor limit and up), so the program's own open() returns the
 * numbers it would without stoke; and a program that closes every
 * descriptor it did not open (daemons do, with close loops, close_range or
 * closefrom) cannot close them: the interposers (interpose.c) skip them and
 * answer as for a descriptor that is not open (EBADF), which is what the
 * program would get without stoke. Only descriptors below 65536 are kept
 * track of. The agent closes its own with agent_fds_close, never close().
 */
#ifndef STOKE_AGENT_AGENT_FDS_H
#define STOKE_AGENT_AGENT_FDS_H

/* Reads the descriptor limit (at the start). Normal context. */
void agent_fds_init(void);

/* Takes fd as the agent's: moves it high when it can (closing the number
 * it had) and returns the number it has now; -1 stays -1. Normal context. */
int agent_fds_adopt(int fd);

/* Closes one of the agent's descriptors. Async-signal-safe. */
void agent_fds_close(int fd);

/* The number is no longer the agent's (the program put a file of its own
 * there with dup2): it is left open, and the program's to close. */
void agent_fds_forget(int fd);

/* 1 when fd is one of the agent's. Async-signal-safe. */
int agent_fds_owned(int fd);

/* The program's close_range(first, last, flags), done around the agent's
 * descriptors with real_close_range. */
int agent_fds_program_close_range(unsigned first, unsigned last, int flags,
                                  int (*real_close_range)(unsigned, unsigned, int));

/* The next agent descriptor at or above fd, or -1. */
int agent_fds_next(unsigned fd);

#endif
