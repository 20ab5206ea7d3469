/*
 * agent_export.h - the agent's entry points. The agent is built with
 * hidden visibility; what it exports is only what the program calls into:
 * the libc functions it interposes (program/interpose.c, heap/heap_hooks.c,
 * heap/heap_cxx.c) and the API of stoke.h (program/agent.c). Where the
 * agent itself calls one of those names (malloc, close, sigprocmask), it
 * calls the C library's function, whoever answers it; where it must not
 * pass through its own interposer, it calls REAL() (real_libc.h).
 */
#ifndef STOKE_AGENT_AGENT_EXPORT_H
#define STOKE_AGENT_AGENT_EXPORT_H

#define AGENT_EXPORT __attribute__((visibility("default")))

#endif
