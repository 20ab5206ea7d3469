/*
 * agent.h - the agent's life cycle, as the libc interposers see it: start
 * and stop of the process, of each thread, and around fork, exec and _exit.
 */
#ifndef STOKE_AGENT_AGENT_H
#define STOKE_AGENT_AGENT_H

/* 1 while this process is being profiled (not in a vfork child, unless
 * under a seccomp filter, where the pid is not asked).
 * Context: program. */
int agent_active(void);

/* A thread created through pthread_create starts.
 * Context: program. */
void agent_thread_begin(void);

/* Before exec: finish this process's trace. After a failed exec: start a
 * new one (the process goes on).
 * Context: program. */
void agent_before_exec(void);
void agent_after_failed_exec(void);

/* Before _exit: finish the trace (no destructor will run), waiting a few
 * seconds at most: _exit may be called from the program's signal handler.
 * Context: program. */
void agent_before_exit(void);

/* The calling thread is about to enter seccomp strict mode: from then on it
 * may only read, write, exit and return from handlers, and the vDSO clock
 * faults there. Its samples are taken without a clock from now on (the
 * writer stamps them), and its sampling clock makes no more system calls.
 * Context: program. */
void agent_thread_going_strict(void);

/* A seccomp filter may come: no sampling clock may need a system call
 * from its handler any more.
 * Context: program. */
void agent_before_filter(void);

/* The calling thread ends through the raw exit system call (no key
 * destructor runs). Makes no system call.
 * Context: program. */
void agent_thread_vanishing(void);

#endif
