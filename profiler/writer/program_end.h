/*
 * program_end.h - notices that the program's last thread has gone while
 * the agent's threads (writer.h) still keep the process alive, and says
 * how the program's threads ended, so that the writer ends the process as
 * it would have ended without stoke.
 *
 * glibc ends the process when its last thread leaves through pthread_exit
 * or by returning from its start routine: that thread calls exit(0). The
 * agent's threads count there, so under stoke that last thread leaves
 * alone, and the process would go on with the agent's only. A thread may
 * also leave through the raw exit system call (one in seccomp strict mode
 * must): then the process ends once no thread is left, and no exit
 * handler runs; its status is the one the last thread gives, which must
 * be the main thread's own, as it would have been the last.
 *
 * Not under a seccomp filter (it reads /proc).
 */
#ifndef STOKE_AGENT_PROGRAM_END_H
#define STOKE_AGENT_PROGRAM_END_H

enum program_end {
    PROGRAM_RUNNING,
    PROGRAM_LEFT_THROUGH_LIBC, /* end it with exit(0), as glibc would have */
    PROGRAM_LEFT_RAW,          /* end the agent's threads with the raw exit system call */
};

/* Opens the /proc files it reads, at the writer's start (a fork child
 * reads its own).
 * Context: writer. */
void program_end_open(void);

/* Closes them, at the writer's end; in a fork child, the copies of its
 * parent's, if it has any.
 * Context: writer, program. */
void program_end_close(void);

/* Whether and how the program's threads have all ended.
 * Context: writer. */
enum program_end program_end_check(void);

/* After PROGRAM_LEFT_RAW: the status the main thread gave its exit.
 * Context: writer. */
int program_end_main_status(void);

#endif
