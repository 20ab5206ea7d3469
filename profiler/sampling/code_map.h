/*
 * code_map.h - the process's code outside its loaded objects, as
 * /proc/self/maps last showed it.
 *
 *   JIT code      executable mappings that belong to no loaded object
 *                 (V8's and the JVM's generated code): a return address in
 *                 one is taken as such without reading the code (each read
 *                 of memory outside the stack and the objects is a system
 *                 call, and a walk may make only a few), and the unwinder
 *                 reads no memory there.
 *   second copies code that a loaded object's file maps again elsewhere:
 *                 node 20 maps V8's embedded builtins a second time next to
 *                 its JIT code and runs them there. Such a mapping becomes
 *                 an alias of the object in the module table
 *                 (modules_add_alias), so its frames are named like the
 *                 object's own.
 *
 * The writer reads the map when it meets an address outside every module
 * and every JIT range, or when a walk met a return address outside every
 * known range: at most once a cycle (20 ms) while the map changes (a
 * runtime maps its code heap as it starts, and more of it as it compiles),
 * then less and less often while it stays the same, down to once a second.
 * An address in known JIT code never asks: were it to, a JIT runtime would
 * ask with every stack, keep the reads backed off, and new code would go
 * unknown for that long (node 18's stacks ended at its first unknown
 * return addresses). The lookups are lock-free and async-signal-safe.
 */
#ifndef STOKE_AGENT_CODE_MAP_H
#define STOKE_AGENT_CODE_MAP_H

#include <stdint.h>

/* Forgets the map and when it was read (at the writer's start: in a fork
 * child /proc/self is another).
 * Context: writer. */
void code_map_reset(void);

/* Closes /proc/self/maps (at the writer's end; in a fork child, the copy
 * of its parent's, if it has one).
 * Context: writer, program. */
void code_map_close(void);

/* Reads the map again when something asked for it and it is time. Returns
 * 1 when a second copy became an alias (resolve its addresses again).
 * now_ns: CLOCK_MONOTONIC.
 * Context: writer. */
int code_map_refresh(uint64_t now_ns);

/* Asks for a fresh look: an address outside every module turned up
 * (writer), or a walk met a return address outside every known range
 * (signal handler).
 * Context: any. */
void code_map_ask(void);

/* 1 when addr lies in an executable mapping that belongs to no loaded
 * object (JIT code), as the map last showed.
 * Context: any. */
int code_map_is_jit_code(uintptr_t addr);

#endif
