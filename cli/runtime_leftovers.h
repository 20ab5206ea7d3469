/*
 * runtime_leftovers.h - the files node was asked to write for stoke (its
 * perf map in /tmp, the isolate log --perf-basic-prof writes in its working
 * directory) that a node process killed before its agent could remove them
 * left behind. Once the process is gone and its trace holds the JIT names,
 * they go: a recording leaves nothing behind that stoke caused.
 */
#ifndef STOKE_CLI_RUNTIME_LEFTOVERS_H
#define STOKE_CLI_RUNTIME_LEFTOVERS_H

#include "traces.h"

/* After the run of r's traces; asked_node: stoke appended its flags to
 * NODE_OPTIONS (launch_asks_node_for_names). */
void remove_runtime_leftovers(const struct recording *r, int asked_node);

#endif
