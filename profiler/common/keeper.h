/*
 * keeper.h - the agent's second thread, which stays in the program's
 * descriptor table while the writer works in a table of its own
 * (agent_fds.h), and does for the writer what needs the program's table:
 * writing a message to the program's stderr, stopping a thread's sampling
 * clock (a perf event of the program's table), and ending the process with
 * exit(0) once the program's last thread has left (writer/program_end.h), when
 * exit handlers and stdio must find the program's descriptors. It also
 * keeps that table alive meanwhile: the kernel closes a table's
 * descriptors when its last thread ends.
 *
 * It sleeps until asked, runs one request at a time, and is never sampled.
 */
#ifndef STOKE_AGENT_KEEPER_H
#define STOKE_AGENT_KEEPER_H

/* Starts the keeper (before the writer, with every signal blocked).
 * Returns 0, or an error number.
 * Context: program. */
int keeper_start(void);

/* Runs fn(arg) in the program's table: on the keeper, and waits for it,
 * when called on the thread with a table of its own; else here.
 * Context: writer, program, hooks. */
void keeper_run(void (*fn)(void *), void *arg);

/* Ends the keeper and waits for it.
 * Context: writer, program. */
void keeper_stop(void);

/* In a fork child: the keeper does not exist there.
 * Context: program. */
void keeper_fork_child(void);

#endif
