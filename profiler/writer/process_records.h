/*
 * process_records.h - encodes the records that describe a process and its
 * code (PROCESS, MAP, STACK), shared by the CPU trace and heap snapshots so
 * both say the same thing the same way.
 */
#ifndef STOKE_AGENT_PROCESS_RECORDS_H
#define STOKE_AGENT_PROCESS_RECORDS_H

#include <stdint.h>

#include "records.h"

struct process_description {
    int clock;            /* enum stoke_clock */
    int engine;           /* enum stoke_engine */
    uint32_t hz;
    uint64_t period_ns;
    uint64_t start_ns;    /* CLOCK_MONOTONIC at the process's start */
    uint64_t start_realtime_ns; /* and CLOCK_REALTIME then */
    uint64_t heap_interval; /* mean bytes between heap samples; 0: no heap tracking */
    int heap_signal;      /* the heap snapshot signal; 0: none */
    const char *heap_note; /* a warning every heap snapshot carries, or NULL */
    char comm[64];        /* command name, safe for a file name */
    char cwd[4096];       /* the working directory at the start, or "" */
    int js_heap_signal;   /* node's V8 heap snapshot signal (js_heap.h); 0: none */
    char cmdline[4096];   /* its arguments, each ended by NUL (read once: a heap
                           * snapshot opens no /proc file, see common/procfs.h) */
    size_t cmdline_len;
};

/* Fills comm from /proc/self/comm, keeping only [A-Za-z0-9._-], cwd and
 * cmdline.
 * Context: writer. */
void process_read_identity(struct process_description *d);

/* The PROCESS record of d.
 * Context: writer. */
void records_process(struct records *r, const struct process_description *d);

/* A NOTE record: a warning for whoever reads the trace.
 * Context: writer. */
void records_note(struct records *r, const char *text);

/* MAP records for the modules with id > after_id; returns the last id.
 * Context: writer. */
uint32_t records_new_maps(struct records *r, uint32_t after_id, uint64_t time_us);

/* The STACK record of stack id: each frame's module and offset
 * (modules_resolve).
 * Context: writer. */
void records_stack(struct records *r, uint32_t id, uint32_t flags, uint32_t n,
                   const uint32_t *modules, const uint64_t *offsets);

#endif
