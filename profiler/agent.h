/*
 * agent.h - the agent's life cycle, as the libc interposers see it: start
 * and stop of the process, of each thread, and around fork, exec and _exit.
 */
#ifndef STOKE_AGENT_AGENT_H
#define STOKE_AGENT_AGENT_H

#include <pthread.h>
#include <signal.h>

/* The agent is built with hidden visibility; these are its exported names. */
#define AGENT_EXPORT __attribute__((visibility("default")))

/* 1 while this process is being profiled (not in a vfork child). */
int agent_active(void);

/* Starts one of the agent's own threads, which is never sampled. */
int agent_create_unsampled_thread(pthread_t *thread, void *(*fn)(void *), void *arg);

/* libc's sigaction, bypassing the agent's own interposer. */
struct sigaction;
int agent_sigaction(int signo, const struct sigaction *sa, struct sigaction *old);

/* 1 when signo has its default disposition (nobody handles it). */
int agent_signal_is_default(int signo);

/* Installs one of the agent's handlers: SA_SIGINFO | SA_RESTART, every
 * signal blocked while it runs. Returns 0 or -1. */
int agent_install_handler(int signo, void (*handler)(int, siginfo_t *, void *));

/* Looks up libc's sigprocmask now, outside any signal handler. */
void agent_resolve_sigprocmask(void);

/* A thread created through pthread_create starts / ends. */
void agent_thread_begin(void);

/* Before exec: finish this process's trace. After a failed exec: start a
 * new one (the process goes on). */
void agent_before_exec(void);
void agent_after_failed_exec(void);

/* Before _exit: finish the trace (no destructor will run). */
void agent_before_exit(void);

#endif
