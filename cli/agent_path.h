/*
 * agent_path.h - finds the agent that belongs to this stoke: libstoke.so,
 * which hooks the allocator for heap tracking, or libstoke-cpu.so, the same
 * agent without those hooks, for recordings without --heap.
 */
#ifndef STOKE_CLI_AGENT_PATH_H
#define STOKE_CLI_AGENT_PATH_H

#include <stddef.h>

#define AGENT_HEAP_FILE "libstoke.so"
#define AGENT_CPU_FILE "libstoke-cpu.so"

/* Writes the absolute path of the agent file name (one of the above) into
 * path. Returns 0, or -1 with a one-line message for the user in err. */
int find_agent(const char *name, char *path, size_t pathlen, char *err, size_t errlen);

#endif
