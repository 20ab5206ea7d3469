/*
 * agent_fds.h - the file descriptors the agent owns inside the program:
 * its trace, the /proc files it reads, a heap snapshot being written, each
 * thread's perf event.
 *
 * They stay out of the program's way. The kernel gives every new
 * descriptor the lowest free number of the calling thread's descriptor
 * table, the number the program's next open() is due to get; a program
 * thread opening at that moment would get another. So the writer thread,
 * which opens all but the perf events, works in a table of its own, empty
 * (close_range with CLOSE_RANGE_UNSHARE, which copies none of the
 * program's descriptors, so it holds none of the program's files open):
 * its descriptors never take a number of the program's, and no close call
 * of the program's reaches them. What the writer must do in the program's
 * table it asks of its keeper (keeper.h). Where the kernel (before 5.9) or
 * a seccomp filter does not allow a table of its own, the writer shares
 * the program's, as the perf events must (each thread's signal handler
 * uses its own): those descriptors are moved to a high number (half the
 * descriptor limit and up) as soon as they are made, which leaves the
 * lowest free number taken for the two system calls in between.
 *
 * The program cannot close a high one either: a program that closes every
 * descriptor it did not open (daemons do, with close loops, close_range or
 * closefrom) has the interposers (program/interpose.c) skip them and answer as for
 * a descriptor that is not open (EBADF), which is what the program would
 * get without stoke. Only descriptors below 65536 are kept track of. The
 * agent closes its own with agent_fds_close, never close().
 */
#ifndef STOKE_AGENT_AGENT_FDS_H
#define STOKE_AGENT_AGENT_FDS_H

/* Reads the descriptor limit, at the start.
 * Context: program. */
void agent_fds_init(void);

/* Gives the calling thread (the writer) a table of its own, with none of
 * the program's descriptors. Returns 0, or -1: it shares the program's.
 * Context: writer. */
int agent_fds_take_own_table(void);

/* The thread with a table of its own ends (its table goes with it), or, in
 * a fork child, does not exist.
 * Context: writer, program. */
void agent_fds_own_table_ended(void);

/* 1 on the thread with a table of its own.
 * Context: any. */
int agent_fds_in_own_table(void);

/* Takes fd as the agent's: moves it high when it can (closing the number
 * it had) and returns the number it has now; -1 stays -1. In a table of
 * the agent's own it stays as it is.
 * Context: program, writer. */
int agent_fds_adopt(int fd);

/* Closes one of the agent's descriptors in the calling thread's table: a
 * number that is not the agent's there (in a fork child, one of the table
 * the parent's writer had of its own, which the child has no copy of) is
 * left alone.
 * Context: any. */
void agent_fds_close(int fd);

/* The number is no longer the agent's (the program put a file of its own
 * there with dup2): it is left open, and the program's to close.
 * Context: any. */
void agent_fds_forget(int fd);

/* 1 when fd is one of the agent's in the program's table (0 on the thread
 * with a table of its own, whose numbers are not the program's).
 * Context: any. */
int agent_fds_owned(int fd);

/* The program's close_range(first, last, flags), done around the agent's
 * descriptors with real_close_range.
 * Context: program. */
int agent_fds_program_close_range(unsigned first, unsigned last, int flags,
                                  int (*real_close_range)(unsigned, unsigned, int));

#endif
