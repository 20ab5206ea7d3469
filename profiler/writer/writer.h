/*
 * writer.h - the agent's writer thread: drains every thread's ring, interns
 * stacks, encodes records and writes a compressed frame at least every
 * second, so a killed process leaves a trace that reports all but the last
 * second.
 */
#ifndef STOKE_AGENT_WRITER_H
#define STOKE_AGENT_WRITER_H

#include <stdint.h>
#include <sys/types.h>

struct writer_process {
    const char *output_dir;
    int clock;            /* enum stoke_clock */
    int engine;           /* enum stoke_engine */
    uint32_t hz;
    uint64_t period_ns;
    const char *note;     /* for the user, or NULL */
    int heap_peak;        /* keep a snapshot of the highest live heap */
    uint64_t heap_interval; /* 0: heap tracking off */
    int heap_signal;      /* 0: no snapshot signal */
    const char *heap_note; /* a warning every heap snapshot carries, or NULL */
    uint64_t max_size;    /* bytes the trace may take on disk (trace_parts.h); 0: no bound */
};

/* Starts the keeper and the writer, which opens this process's trace and
 * writes its PROCESS record. Returns 0 once it has, or -1 (already
 * reported; the program runs on).
 * Context: program. */
int writer_start(const struct writer_process *p);

/* Stops every thread's sampling clock, drains what is left, writes the
 * END record (and the exit heap snapshot), closes the trace and joins the
 * thread. bounded: wait at most a few seconds (for _exit and exec, which
 * may be called from a signal handler that interrupted a lock holder, and
 * for an exit signal whose default action ends the process next).
 * Context: program, handler. */
void writer_stop(int bounded);

/* The process is about to exec: a fork child that has taken no sample yet
 * (node's child_process and cluster start every worker so) leaves no trace
 * and no heap snapshot: the trace is removed instead of finished. Call
 * before writer_stop.
 * Context: program. */
void writer_before_exec(void);

/* The exec failed: the process goes on (and its next trace is kept).
 * Context: program. */
void writer_exec_failed(void);

/* Asks the writer for a heap snapshot (to path, or the usual name when
 * NULL) and waits for it. Returns 0 with the path in written, or -1 with
 * errno set (ENOTSUP when no writer runs).
 * Context: program. */
int writer_heap_dump(const char *path, char *written, size_t cap);

/* The program took the dump signal over and snapshots moved to another
 * (program/dump_signal.h): waits until the trace names the new one (the writer's
 * next cycle, a second at most), so that stoke heap, which reads it there,
 * never sends the old one to the program's handler. Async-signal-safe
 * (sigaction may be called in a handler); errno is kept. Returns at once
 * in the writer thread or when no writer runs.
 * Context: program. */
void writer_await_heap_signal(void);

/* fork: the prepare handler waits until the writer is between cycles; the
 * child forgets the parent's writer (its thread does not exist there).
 * Context: program. */
void writer_fork_prepare(void);
void writer_fork_parent(void);
void writer_fork_child(void);

#endif
