/*
 * exec_env.h - keeps an exec'd program profiled when the program hands it
 * an environment without stoke's variables (as `env -i` does): the new
 * image then gets the variables the agent itself started with (every
 * STOKE_* setting of stoke_agent_env.h, and LD_PRELOAD), so it is
 * profiled as its parent was, heap tracking included.
 */
#ifndef STOKE_AGENT_EXEC_ENV_H
#define STOKE_AGENT_EXEC_ENV_H

#include <stddef.h>

/* Remembers the agent's own variables. Call once at start.
 * Context: program. */
void exec_env_save(void);

/* How many entries exec_env_fill may add to an environment. */
#define EXEC_ENV_EXTRA 11

/* Copies envp into out (room for its entries + EXEC_ENV_EXTRA + NULL)
 * adding the saved variables it lacks when it has no STOKE_OUTPUT, and
 * returns out; returns envp unchanged when nothing is missing. Allocates
 * nothing, so it is safe in a vfork child.
 * Context: program. */
char *const *exec_env_fill(char *const envp[], char **out);

/* Number of entries of envp, not counting the final NULL.
 * Context: any. */
size_t exec_env_count(char *const envp[]);

#endif
