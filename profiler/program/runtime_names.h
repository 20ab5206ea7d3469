/*
 * runtime_names.h - what stoke asked of this process's JIT runtime so that
 * the code it generates gets names (STOKE_RUNTIME_NAMES, see
 * stoke_agent_env.h), and keeping what that leaves out of the program's way.
 *
 *   node  stoke record appended STOKE_NODE_FLAGS to NODE_OPTIONS: node
 *         writes /tmp/perf-<pid>.map and, for --perf-basic-prof, an
 *         isolate-0x...-<pid>-v8.log in its working directory. Both are
 *         stoke's to remove at the end (the map once it is in the trace)
 *         unless the program's own arguments asked for them.
 *   java  a JVM of release STOKE_JAVA_MIN_VERSION or later gets
 *         STOKE_JAVA_FLAGS added to its JAVA_TOOL_OPTIONS before it starts:
 *         it writes its perf map at exit and keeps frame pointers in
 *         compiled code. The JVM announces the variable on stderr ("Picked
 *         up JAVA_TOOL_OPTIONS: ..."): the announcement shows only what the
 *         user had set (nothing when they had set nothing), and the
 *         variable is put back as it was once the JVM has read it.
 *
 * runtime_names_init runs in the constructor, before main, while the
 * process has one thread.
 */
#ifndef STOKE_AGENT_RUNTIME_NAMES_H
#define STOKE_AGENT_RUNTIME_NAMES_H

#include <stdarg.h>
#include <stdio.h>

/* Reads what was asked (STOKE_RUNTIME_NAMES), which runtime this process
 * is, and what its arguments ask for themselves; sets up the JVM's flags.
 * Context: program. */
void runtime_names_init(void);

/* 1 when the process's perf map is stoke's doing, to be removed once it is
 * in the trace.
 * Context: writer. */
int runtime_names_map_is_ours(void);

/* At the end of the trace: removes node's isolate logs that stoke caused.
 * Context: writer. */
void runtime_names_finish(void);

/* The agent's vfprintf: 1 when this call is the JVM's announcement of
 * JAVA_TOOL_OPTIONS, which it then wrote as without stoke (its result in
 * *result); 0 for every other call, to be done as asked.
 * Context: program. */
int runtime_names_quiet_notice(FILE *stream, const char *format, va_list ap, int *result);

#endif
