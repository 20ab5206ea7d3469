/*
 * stoke_agent_env.h - the environment contract between `stoke record` and
 * the agent: the variables the command runs with, and their limits; and
 * the name by which `stoke heap` finds the agent's writer. Both cli/ and
 * profiler/ include it; docs/usage.md documents it for users who preload
 * libstoke.so by hand.
 */
#ifndef STOKE_AGENT_ENV_H
#define STOKE_AGENT_ENV_H

#define STOKE_ENV_OUTPUT "STOKE_OUTPUT" /* directory for traces; unset: agent idle */
#define STOKE_ENV_HZ "STOKE_HZ"         /* samples per second of the clock */
#define STOKE_ENV_CLOCK "STOKE_CLOCK"   /* "cpu" or "wall" */
/* "FD:INODE": a datagram socket on which the agent reports the first TCP
 * port the program listens on ("port N pid P\n"); set by stoke record -P. */
#define STOKE_ENV_PORT_FD "STOKE_PORT_FD"
/* Bytes each process's CPU trace may take on disk; unset or 0: no bound.
 * Over it, the trace goes on in parts and the oldest are removed. */
#define STOKE_ENV_MAX_SIZE "STOKE_MAX_SIZE"

/* Heap tracking (off unless STOKE_HEAP_INTERVAL is set). */
#define STOKE_ENV_HEAP_INTERVAL "STOKE_HEAP_INTERVAL" /* mean bytes per sample; 1 = all */
#define STOKE_ENV_HEAP_SIGNAL "STOKE_HEAP_SIGNAL"     /* dump signal number; 0 = none */
#define STOKE_ENV_HEAP_PEAK "STOKE_HEAP_PEAK"         /* "1": keep the peak snapshot */
#define STOKE_ENV_HEAP_SEED "STOKE_HEAP_SEED"         /* fixed seed: reproducible sampling */

/* The JIT runtimes whose generated code stoke record asked to be named: a
 * list of "node" (STOKE_NODE_FLAGS were appended to NODE_OPTIONS by stoke,
 * so node's perf map and isolate logs are stoke's to remove) and "java"
 * (the agent adds STOKE_JAVA_FLAGS to a JVM's JAVA_TOOL_OPTIONS itself).
 * Unset: nothing is asked of them (stoke record --no-runtime-names). */
#define STOKE_ENV_RUNTIME_NAMES "STOKE_RUNTIME_NAMES"
#define STOKE_NODE_FLAGS "--perf-basic-prof --interpreted-frames-native-stack"
#define STOKE_JAVA_FLAGS \
    "-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer"
/* With --heap, stoke record also asks node to write a V8 heap snapshot on a
 * signal (appended to NODE_OPTIONS), and the agent sends it with each heap
 * snapshot taken on request: SIGPWR, which no runtime or server uses. */
#define STOKE_NODE_HEAP_FLAG "--heapsnapshot-signal=SIGPWR"
#define STOKE_JS_HEAP_SIGNAL 30 /* SIGPWR on Linux */

/* The first Java release with -XX:+DumpPerfMapAtExit. */
#define STOKE_JAVA_MIN_VERSION 17

/* The agent's writer thread, which keeps the trace open in a descriptor
 * table of its own: stoke heap finds the trace among its descriptors. */
#define STOKE_WRITER_THREAD_NAME "stoke-writer"

#define STOKE_DEFAULT_HZ 997
#define STOKE_MAX_HZ 100000
#define STOKE_DEFAULT_HEAP_INTERVAL (512 * 1024)
#define STOKE_MAX_HEAP_INTERVAL (1ull << 40)
#define STOKE_MIN_MAX_SIZE (64ull << 10) /* smaller parts would be mostly names */
#define STOKE_DEFAULT_HEAP_SIGNAL 12 /* SIGUSR2 */

#endif
