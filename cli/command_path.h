/*
 * command_path.h - resolves a command name the way a shell does, with PATH.
 */
#ifndef STOKE_CLI_COMMAND_PATH_H
#define STOKE_CLI_COMMAND_PATH_H

#include <stddef.h>

/* Writes the file that `name` runs into path. Returns 0, or an errno value
 * (ENOENT: nothing by that name; EACCES, EISDIR: found, but not runnable). */
int resolve_command(const char *name, char *path, size_t pathlen);

/* The exit status a shell gives for a command that could not run: 127 when
 * it does not exist, 126 when it exists but cannot be executed. */
int cannot_run_status(int error);

#endif
