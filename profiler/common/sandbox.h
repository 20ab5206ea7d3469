/*
 * sandbox.h - what the agent knows of a seccomp sandbox around the process.
 *
 * Under a seccomp filter (or strict mode) a system call the program never
 * makes may kill it. While one is known or announced, the agent makes no
 * system call of its own in the program's threads beyond those it cannot
 * do without, and none that only improve a profile (sampling/safe_memory.h's reads,
 * the heap tables' membarrier). A filter is known from /proc/self/status
 * when the agent starts (one inherited across exec, as systemd sets them),
 * and announced when the program asks for seccomp or no_new_privs through
 * prctl or libc's syscall() (a filter needs no_new_privs unless the program
 * is privileged; the libseccomp library asks through prctl). A privileged
 * program installing a filter with an inline system call is not seen.
 */
#ifndef STOKE_AGENT_SANDBOX_H
#define STOKE_AGENT_SANDBOX_H

/* Reads the process's seccomp mode again (at start, in a fork child, and
 * before a system call that a filter installed since would make fatal);
 * returns 1 when filtered. One thread at a time.
 * Context: program, hooks. */
int sandbox_check(void);

/* The program is about to ask for a seccomp filter or no_new_privs.
 * Context: program. */
void sandbox_expect_filter(void);

/* A thread of the program is about to enter seccomp strict mode: from then
 * on it may only read, write, exit and return from signal handlers, and
 * reading the time stamp counter (the vDSO clock) faults there. Other
 * threads, the agent's own included, are not restricted.
 * Context: program. */
void sandbox_expect_strict_thread(void);

/* 1 once a filter is known or announced: any thread, the agent's own
 * included, may be restricted.
 * Context: any. */
int sandbox_filtered(void);

/* 1 once a filter or a strict thread is known or announced: optional
 * system calls in the program's threads are off.
 * Context: any. */
int sandbox_threads_restricted(void);

#endif
