/*
 * server_session.h - `stoke record` with -P or --duration: starts the
 * server with the agent, waits until it listens (the port reported by the
 * agent, or --port), runs the load command against it, and stops the whole
 * process tree gently (SIGINT, SIGTERM, then SIGKILL, --stop-timeout
 * apart) when the load ends, the duration is over, or on Ctrl-C. With heap
 * tracking, the server (the process that listens) takes a heap snapshot
 * as the load starts and another as it ends: what grew is what the load
 * left behind.
 */
#ifndef STOKE_CLI_SERVER_SESSION_H
#define STOKE_CLI_SERVER_SESSION_H

#include <stdint.h>

#include "continuous_push.h"
#include "launch.h"
#include "load_marks.h"
#include "load_tool.h"

struct session_plan {
    const char *load;         /* -P COMMAND; NULL: none */
    unsigned port;            /* --port; 0: the agent reports it */
    uint64_t wait_ms;         /* --wait */
    uint64_t stop_timeout_ms; /* --stop-timeout */
    uint64_t duration_ms;     /* --duration; 0: none */
    int heap;                 /* --heap: a heap snapshot of the server when the
                                 load starts and when it ends */
    const struct push_plan *push; /* --push: windows sent while it runs; NULL: none */
};

struct session_result {
    int status;          /* stoke's exit status */
    int write_report;    /* 0 after a second Ctrl-C: stop at once */
    int ran_load;        /* 1: output holds the load command's output */
    struct load_output output;
    uint64_t wall_us;
    struct load_marks marks; /* when the load ran (0: it did not), and with
                              * plan->heap the snapshots taken ("": none) */
};

/* Runs the session; the launch plan's session fields are filled in here.
 * Returns 0 with *result and *child set (child->output_dir is where the
 * traces went), or -1 when the server could not start: then err holds a
 * one-line message and *failure_status the exit status. */
int run_server_session(const struct session_plan *plan, struct launch_plan *launch_plan,
                       struct launched *child, struct session_result *result, char *err,
                       size_t errlen, int *failure_status);

#endif
