/*
 * heap_request.h - asks a process that stoke's agent tracks for a heap
 * snapshot now and waits for it: what `stoke heap PID` does, and what
 * stoke record -P --heap does when the load starts and ends.
 */
#ifndef STOKE_CLI_HEAP_REQUEST_H
#define STOKE_CLI_HEAP_REQUEST_H

#include <limits.h>
#include <sys/types.h>

struct heap_request {
    char native[2 * PATH_MAX]; /* the snapshot's path, "" when none was written */
    char js[2 * PATH_MAX];     /* node's V8 heap snapshot written with it, or "" */
    double node_pause_ms;      /* how long node took to write it, -1 unknown */
};

/* Checks that the process can take one (telling why not on stderr, each
 * line starting "stoke heap: "), sends its snapshot signal and waits up to
 * timeout_s. Returns 0 when every part was written, else -1 (out holds
 * what was). */
int heap_request(pid_t pid, double timeout_s, struct heap_request *out);

#endif
