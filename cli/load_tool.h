/*
 * load_tool.h - the load tool of `stoke record -P`: its command line
 * with the port put in, run through /bin/sh in a process group of its own,
 * its output shown live and kept for the report.
 */
#ifndef STOKE_CLI_LOAD_TOOL_H
#define STOKE_CLI_LOAD_TOOL_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* The load command's output as kept for the report (at most 1 MiB; the
 * start is kept, the rest counted). */
struct load_output {
    char *text;
    size_t len, cap;
    size_t dropped;
};

struct load_tool {
    pid_t pid;           /* also its process group */
    int output_fd;       /* read end of its stdout and stderr; -1 after EOF */
    struct load_output output;
};

/* command with each $PORT and ${PORT} replaced by port (malloc'ed); a
 * longer name such as $PORTS is left alone. */
char *expand_port(const char *command, unsigned port);

/* Starts `sh -c command` with stdin from /dev/null, stdout and stderr into
 * a pipe, and the signal mask mask. Returns 0, or -1 with errno set. */
int load_tool_start(struct load_tool *load, const char *command, const sigset_t *mask);

/* Copies what the command wrote since the last call to stoke's stdout and
 * to the kept output; at EOF closes output_fd. */
void load_tool_pump(struct load_tool *load);

void load_tool_free(struct load_tool *load);

#endif
