/*
 * left_running.h - the processes a recorded command leaves running when
 * its own process exits (a daemon's double fork, a job put in the
 * background). stoke record is their child subreaper, so they are
 * reparented to it, and it waits for them before it reports.
 */
#ifndef STOKE_CLI_LEFT_RUNNING_H
#define STOKE_CLI_LEFT_RUNNING_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct adoption {
    sigset_t stop_signals;  /* SIGINT, SIGTERM, SIGHUP: stop waiting; SIGCHLD */
    sigset_t original_mask; /* stoke's signal mask from before */
};

/* What the wait found. */
struct left_running {
    uint64_t cpu_us;  /* CPU time of the processes it reaped, and of those still
                         running so far */
    pid_t *running;   /* the processes still running when it stopped waiting */
    size_t nrunning;
};

/* Makes stoke the child subreaper of what it starts next. The launch must
 * keep a->stop_signals blocked once the command's own process is reaped
 * (wait_for_child), so none is lost before wait_for_left_running. */
void adopt_left_running(struct adoption *a);

/* Once the command's own process has ended: says on stderr which
 * processes it left running (if any) and waits until they have all ended,
 * or until SIGINT, SIGTERM or SIGHUP reaches stoke, which leaves them
 * running. Then stops being a subreaper and restores the signal mask. */
void wait_for_left_running(struct adoption *a, struct left_running *out);

void free_left_running(struct left_running *left);

#endif
