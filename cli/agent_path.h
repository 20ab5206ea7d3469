/*
 * agent_path.h - finds the agent (libstoke.so) that belongs to this stoke.
 */
#ifndef STOKE_CLI_AGENT_PATH_H
#define STOKE_CLI_AGENT_PATH_H

#include <stddef.h>

/* Writes the absolute path of the agent into path. Returns 0, or -1 with a
 * one-line message for the user in err. */
int find_agent(char *path, size_t pathlen, char *err, size_t errlen);

#endif
