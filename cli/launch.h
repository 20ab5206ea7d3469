/*
 * launch.h - runs the recorded command with the agent preloaded and waits
 * for it.
 */
#ifndef STOKE_CLI_LAUNCH_H
#define STOKE_CLI_LAUNCH_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#include "output_files.h"

/* Heap tracking of the command (the STOKE_HEAP_* variables). */
struct heap_plan {
    uint64_t interval; /* mean bytes per sample; 1 = every allocation; 0 = off */
    int signal;        /* the dump signal; 0 = none */
    int peak;          /* 1: keep the peak snapshot */
};

struct launch_plan {
    const char *file;       /* the executable, already resolved with PATH */
    char *const *argv;      /* its arguments, argv[0] as the user typed it */
    const char *output_dir; /* NULL: the default, named after the child's pid */
    const char *agent;      /* absolute path of libstoke.so */
    unsigned hz;            /* STOKE_HZ */
    const char *clock;      /* STOKE_CLOCK: "cpu" or "wall" */
    int runtime_names;      /* 1: node and the JVM are asked to name their code
                               (NODE_OPTIONS, STOKE_RUNTIME_NAMES) */
    uint64_t max_size;      /* STOKE_MAX_SIZE: bytes of each CPU trace; 0: no bound */
    struct heap_plan heap;
    int port_fd;            /* the agent's end of the port channel (STOKE_PORT_FD); 0: none */
    const sigset_t *session_mask; /* NULL: stoke waits for the command alone (wait_for_child).
                                     Else a server session owns stoke's signals: the command
                                     gets its own process group, stdin from /dev/null and
                                     this signal mask, and stoke's signals stay untouched */
};

struct launched {
    pid_t pid;
    char output_dir[PATH_MAX]; /* where the traces go, as the user named it */
    uint64_t cpu_us;           /* after the wait: CPU time of the command and
                                  of the children it waited for */
    struct output_files earlier; /* stoke's kinds of files in output_dir before the
                                    command started: not this recording's */
};

/* Prepares the output directory and starts the command in it. Returns 0
 * (free child->earlier when done with it), or -1 when the command could not
 * start: then err holds a one-line message and *failure_status the exit
 * status stoke should end with. */
int launch(const struct launch_plan *plan, struct launched *child, char *err, size_t errlen,
           int *failure_status);

/* 1 when stoke asks node for its perf map (runtime names on, and the
 * user's NODE_OPTIONS does not ask for one itself). */
int launch_asks_node_for_names(int runtime_names);

/* Waits for the child to end and returns its wait status. While it waits
 * (without a session_mask), SIGINT and SIGQUIT are left to the child and
 * SIGTERM and SIGHUP are passed on. Then stoke's signals are as before the
 * launch, but for those of keep_blocked (NULL: none), which stay blocked
 * for stoke to read. */
int wait_for_child(struct launched *child, const sigset_t *keep_blocked);

/* A wait status as a shell reports it: the exit code, or 128 + the signal
 * that ended the process. */
int shell_status(int wait_status);

/* When the child died of SIGINT, stoke ends by SIGINT too, so that a shell
 * running stoke in a loop stops as it would for the command itself. */
void pass_on_interrupt(int wait_status);

#endif
